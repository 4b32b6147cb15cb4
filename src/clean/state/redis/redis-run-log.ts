// The run history every runner sees: one hash of run id -> latest record. A run under way keeps a key alive: the sign
// of life other machines read, as they cannot ask this machine's processes.
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { isThisProcess, runsHere } from '../process-lives.js';
import { type LoggedRun, newestFirst, parseRunRecord, type RunRecord } from '../run-log.js';
import { askShared } from './connect.js';

const ALIVE_MS = 60_000;
const REFRESH_MS = 20_000;

export class RedisRunLog {
  private readonly beating = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly redis: Redis,
    private readonly url: string,
    /** The account's key prefix. */
    private readonly prefix: string,
  ) {}

  private get key(): string {
    return `${this.prefix}:runs`;
  }

  private aliveKey(id: string): string {
    return `${this.prefix}:run-alive:${id}`;
  }

  async record(run: RunRecord): Promise<void> {
    const running = run.end === null && isThisProcess(run);
    const alive = this.aliveKey(run.id);
    const commands = this.redis.multi().hset(this.key, run.id, JSON.stringify(run));
    await this.exec((running ? commands.set(alive, '1', 'PX', ALIVE_MS) : commands.del(alive)).exec());
    if (running && !this.beating.has(run.id)) {
      const timer = setInterval(() => this.redis.pexpire(alive, ALIVE_MS).catch(() => undefined), REFRESH_MS);
      timer.unref();
      this.beating.set(run.id, timer);
    } else if (!running) this.stopBeating(run.id);
  }

  async list(): Promise<LoggedRun[]> {
    const runs = Object.values(await this.exec(this.redis.hgetall(this.key)))
      .map(parseRunRecord)
      .filter((run): run is RunRecord => run !== undefined);
    // This machine's processes are asked; for runs elsewhere, their sign of life.
    const alive = new Set(await this.living(runs.filter((run) => run.end === null && run.host !== hostname())));
    return runs
      .map((run) => ({ ...run, live: run.end === null && (runsHere(run) || alive.has(run.id)) }))
      .sort(newestFirst);
  }

  async forget(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    for (const id of ids) this.stopBeating(id);
    return this.exec(this.redis.hdel(this.key, ...ids));
  }

  close(): void {
    for (const id of [...this.beating.keys()]) this.stopBeating(id);
  }

  /** The ids of those runs whose sign of life is there. */
  private async living(runs: RunRecord[]): Promise<string[]> {
    if (runs.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const run of runs) pipeline.exists(this.aliveKey(run.id));
    const answers = (await this.exec(pipeline.exec())) ?? [];
    return runs.filter((_, i) => answers[i]?.[1] === 1).map((run) => run.id);
  }

  private stopBeating(id: string): void {
    clearInterval(this.beating.get(id));
    this.beating.delete(id);
  }

  private exec<T>(command: Promise<T>): Promise<T> {
    return askShared(this.url, () => command);
  }
}
