import { Paged } from '../scan/spill/paged.js';
import type { UniqueKeys } from '../scan/spill/unique-keys.js';
import { CodedColumn } from './coded-column.js';
import { IntTable } from './int-table.js';
import { addressKind, type Verdict } from './verdict.js';

/** When an answer was given: as its checker wrote it, or epoch ms (the cache's), written out in ISO 8601. */
export type AnswerTime = string | number;

/** Integers below this are held in a word of their own by V8 (Smi), larger numbers as an object. */
const SMALL = 2 ** 30;

/** The last answers made into verdicts (get), by number modulo this: kept longer, they live into V8's old space. */
const RECENT = 64;

/** Each unique address's verdict as a shape (a verdict but for its time: few) and a time: numbers, not objects. */
export class VerdictTable {
  private readonly column = new CodedColumn();
  private count = 0;
  private readonly shapes: Verdict[] = [];
  private readonly shapeNumbers = new Map<string, number>();
  private readonly shapeOfVerdict = new WeakMap<Verdict, number>();
  private readonly withKinds = new Map<number, number>();
  private readonly answerShapes = new Paged(Uint32Array);
  private readonly answerTimes: AnswerTime[] = [''];
  private readonly answersOfShape: Array<{ byOffset: IntTable; byTime?: Map<AnswerTime, number> }> = [];
  private timeBase: number | undefined;
  private lastText = '';
  private lastTextKey: AnswerTime = '';
  private answers = 0;
  /** The last verdict object and time set, and its answer (0: none): a batch's rows usually share them. */
  private lastVerdict: Verdict | undefined;
  private lastTime: AnswerTime = '';
  private lastAnswer = 0;
  private readonly recent: Array<Verdict | undefined> = new Array(RECENT);
  private readonly recentAnswers = new Int32Array(RECENT);

  constructor(private readonly keys: UniqueKeys) {}

  get size(): number {
    return this.count;
  }

  get answersSoFar(): number {
    return this.answers;
  }

  /** `time`: the answer's, where it is not the verdict's own `checkedAt` (answers alike but for it share a verdict). */
  set(ordinal: number, verdict: Verdict, time: AnswerTime = verdict.checkedAt): void {
    if (verdict !== this.lastVerdict || time !== this.lastTime || this.lastAnswer === 0) {
      this.lastVerdict = verdict;
      this.lastTime = time;
      this.lastAnswer = this.answerOf(this.shapeOf(verdict), time);
    }
    if (this.column.set(ordinal, this.lastAnswer)) this.count++;
  }

  /** An answer without the address's kind (free, role) gets it from the key, so rows of a kind share a verdict. */
  setKey(key: string, verdict: Verdict, ordinal = this.keys.ordinal(key), time: AnswerTime = verdict.checkedAt): void {
    if (ordinal < 0) return;
    const shape = this.shapeOf(verdict);
    if ((this.shapes[shape] as Verdict).free !== undefined) this.set(ordinal, verdict, time);
    else if (this.column.set(ordinal, this.answerOf(this.withKind(shape, key), time))) this.count++;
  }

  has(ordinal: number): boolean {
    return this.column.get(ordinal) !== 0;
  }

  get(ordinal: number, before = Number.POSITIVE_INFINITY): Verdict | undefined {
    const answer = this.column.get(ordinal);
    if (answer === 0 || answer > before) return undefined;
    const slot = answer % RECENT;
    if (this.recentAnswers[slot] === answer) return this.recent[slot];
    const time = this.answerTimes[answer] as AnswerTime;
    const verdict = {
      ...(this.shapes[this.answerShapes.get(answer)] as Verdict),
      checkedAt: typeof time === 'number' ? new Date(this.epochMs(time)).toISOString() : time,
    };
    this.recent[slot] = verdict;
    this.recentAnswers[slot] = answer;
    return verdict;
  }

  private shapeOf(verdict: Verdict): number {
    let shape = this.shapeOfVerdict.get(verdict);
    if (shape === undefined) {
      shape = this.shapeNumber(withoutTime(verdict));
      this.shapeOfVerdict.set(verdict, shape);
    }
    return shape;
  }

  private shapeNumber(shape: Verdict): number {
    const said = JSON.stringify(shape);
    let number = this.shapeNumbers.get(said);
    if (number === undefined) {
      number = this.shapes.push(shape) - 1;
      this.shapeNumbers.set(said, number);
    }
    return number;
  }

  private withKind(shape: number, key: string): number {
    const { free, role } = addressKind(this.shapes[shape] as Verdict, key);
    if (free === null || role === null) return shape;
    const kind = shape * 4 + (free ? 2 : 0) + (role ? 1 : 0);
    let number = this.withKinds.get(kind);
    if (number === undefined) {
      number = this.shapeNumber({ ...(this.shapes[shape] as Verdict), free, role });
      this.withKinds.set(kind, number);
    }
    return number;
  }

  /** An epoch-ms time as its distance from the first where that is a Smi (V8 then holds no object for it). */
  private timeKey(time: AnswerTime): AnswerTime {
    if (typeof time === 'string') {
      if (time !== this.lastText) {
        const ms = Date.parse(time);
        this.lastText = time;
        this.lastTextKey = Number.isFinite(ms) && new Date(ms).toISOString() === time ? this.timeKey(ms) : time;
      }
      return this.lastTextKey;
    }
    this.timeBase ??= time;
    const offset = time - this.timeBase;
    if (Number.isInteger(offset) && Math.abs(offset) < SMALL) return offset;
    return Math.abs(time) >= SMALL ? time : new Date(time).toISOString();
  }

  private epochMs(timeKey: number): number {
    return Math.abs(timeKey) < SMALL ? (this.timeBase as number) + timeKey : timeKey;
  }

  private answerOf(shape: number, answerTime: AnswerTime): number {
    let answers = this.answersOfShape[shape];
    if (answers === undefined) this.answersOfShape[shape] = answers = { byOffset: new IntTable() };
    const time = this.timeKey(answerTime);
    const small = typeof time === 'number' && Math.abs(time) < SMALL;
    let answer = small ? answers.byOffset.get(time) : answers.byTime?.get(time);
    if (answer === undefined || answer === 0) {
      answer = ++this.answers;
      if (small) answers.byOffset.set(time, answer);
      else (answers.byTime ??= new Map()).set(time, answer);
      this.answerShapes.set(answer, shape);
      this.answerTimes.push(time);
    }
    return answer;
  }
}

function withoutTime(v: Verdict): Verdict {
  const shape: Verdict = {
    key: '',
    status: v.status,
    valid: v.valid,
    disposable: v.disposable,
    validDomain: v.validDomain,
    reason: v.reason,
    checkedAt: '',
  };
  if (v.suggestion !== undefined) shape.suggestion = v.suggestion;
  if (v.serviceStatus !== undefined) shape.serviceStatus = v.serviceStatus;
  if (v.decidedBy !== undefined) shape.decidedBy = v.decidedBy;
  if (v.free !== undefined) shape.free = v.free;
  if (v.role !== undefined) shape.role = v.role;
  if (v.provider !== undefined) shape.provider = v.provider;
  return shape;
}
