// The review's keys: a decision per key on the current row, saved beside the list after each, until `q` (the
// decisions are then written to the list) or Ctrl-C (they stay beside it for the next `review FILE`).
import type { Factory } from '../../factory.js';
import { domainOf, type Review, type Step } from '../../review/decisions.js';
import type { ReviewItem } from '../../review/list.js';
import { saveSteps } from '../../review/side-file.js';
import { checkSyntax } from '../../verify/syntax.js';
import { render } from './screen.js';
import { type Key, STOP, Terminal } from './terminal.js';

export type Ending = 'quit' | 'stopped';

interface State {
  message?: string;
  editing?: string;
}

export async function runSession(f: Factory, review: Review, file: string): Promise<Ending> {
  const terminal = new Terminal(f.io);
  const state: State = {};
  const draw = () => {
    const item = review.current() as ReviewItem | undefined;
    const view = {
      file,
      item,
      position: review.position(),
      total: review.items.length,
      counts: review.counts(),
      ...state,
    };
    terminal.draw(render(view, terminal.width, terminal.height, f.io.style), state.editing !== undefined);
  };
  terminal.open(draw);
  try {
    for (;;) {
      draw();
      const key = await terminal.next();
      if (key === STOP) return 'stopped';
      if (state.editing !== undefined) editKey(review, file, state, key);
      else if (commandKey(review, file, state, key) === 'quit') return 'quit';
    }
  } finally {
    terminal.close();
  }
}

function commandKey(review: Review, file: string, state: State, key: Key): 'quit' | undefined {
  const item = review.current();
  state.message = undefined;
  if (key.text === 'q' || (item === undefined && key.name === 'return')) return 'quit';
  if (key.text === 'u') {
    const step = review.undo();
    state.message = step.length === 0 ? 'nothing to undo' : `undone: ${describe(step)}`;
    saveSteps(file, review.history);
    return undefined;
  }
  if (item === undefined) {
    state.message = 'every row is decided: q saves and quits, u undoes the last decision';
    return undefined;
  }
  const act: Record<string, () => Step> = {
    a: () => review.accept(),
    r: () => review.reject(),
    A: () => review.acceptDomain(),
  };
  const action = act[key.text];
  if (action) {
    const step = action();
    state.message =
      key.text === 'A'
        ? `accepted ${step.length} row${step.length === 1 ? '' : 's'} at @${domainOf(item.typed)}`
        : describe(step);
    saveSteps(file, review.history);
  } else if (key.text === 'e') state.editing = item.fix;
  else state.message = 'keys: a accept, r reject, e edit, A accept all of the domain, u undo, q save & quit';
  return undefined;
}

function editKey(review: Review, file: string, state: State, key: Key): void {
  const typed = state.editing ?? '';
  state.message = undefined;
  if (key.name === 'escape') state.editing = undefined;
  else if (key.name === 'backspace') state.editing = [...typed].slice(0, -1).join('');
  else if (key.ctrl && key.name === 'u') state.editing = '';
  else if (key.name === 'return' || key.name === 'enter') {
    const address = typed.trim();
    const syntax = checkSyntax(address);
    if (!syntax.ok) {
      state.message = `not an address (${syntax.reason.replaceAll('_', ' ')}): fix it, or Esc to cancel`;
      return;
    }
    state.editing = undefined;
    state.message = describe(review.accept(address));
    saveSteps(file, review.history);
  } else if (key.text && !key.ctrl && key.text >= ' ') state.editing = typed + key.text;
}

function describe(step: Step): string {
  const first = step[0];
  if (first === undefined) return '';
  if (step.length > 1) return `${step.length} rows at @${domainOf(first.typed)} accepted`;
  return first.kind === 'accept'
    ? `row ${first.row + 1}: ${first.typed} -> ${first.address}`
    : `row ${first.row + 1}: suggestion rejected`;
}
