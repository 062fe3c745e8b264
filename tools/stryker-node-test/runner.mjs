// runner.mjs: a StrykerJS test runner ("node-test-in-process") for the Node tests, written for
// `make mutate-js` on a small shared machine. Stryker's tap runner starts a Node process for every
// test file of every mutant (seconds each, hours for a full run); this one keeps one test process
// (worker.mjs) that imports the test files once and runs, for each mutant, only the single tests
// that reach it (coverage per test, from the dry run), stopping at the first that fails.
//
// One process for all mutants means a mutant could leave something behind (a trainer slot not
// given back, a cache holding a wrong value) that fails a later test. So a test that fails under
// a mutant is run again with no mutant: if it fails then too, the process is replaced by a fresh
// one and the mutant is run again there. A mutant that runs past its time (an endless loop) also
// gets a fresh process and counts as a time-out.
//
// Options (stryker.config.mjs): nodeTest: { testFiles: ['tests/a.test.mjs', ...], skip: [regex
// source, ...], testsOf: { 'web/blocks/config.js': ['tests/blocks/config.test.mjs', ...], 'web/labs/': [...] } }:
// tests whose "file: name" matches a skip pattern are not run at all; a mutant in a module named
// in testsOf (a path, or a folder ending in /) runs only the tests of those files that reach it.
import { fork } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import { DryRunStatus, MutantRunStatus, TestStatus } from '@stryker-mutator/api/test-runner';

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));
// Each test's time in the dry run, kept in the sandbox for the runners started after it (a mutant
// runs its tests fastest first, so a failing one is usually found soon).
const TIMES = '.node-test-times.json';

// The test processes end with this one, also when Stryker itself is stopped.
const children = new Set();
const endAll = () => { for (const c of children) c.kill('SIGKILL'); };
process.on('exit', endAll);
process.on('disconnect', () => { endAll(); process.exit(0); });

class InProcessNodeTestRunner {
  static inject = tokens(commonTokens.options, commonTokens.logger);

  constructor(options, log) {
    this.files = options.nodeTest?.testFiles ?? [];
    this.skip = (options.nodeTest?.skip ?? []).map((p) => new RegExp(p));
    this.testsOf = Object.entries(options.nodeTest?.testsOf ?? {});
    this.log = log;
    this.child = null;
    this.order = []; // every test id, in file order
    this.ms = new Map(); // test id -> its time in the dry run
  }

  capabilities() {
    return { reloadEnvironment: true };
  }

  /** A fresh test process with the test files imported. */
  async start() {
    this.stop();
    const child = fork(WORKER, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced' });
    this.child = child;
    children.add(child);
    this.pending = null;
    child.on('message', (m) => { if (m.ready) return; const p = this.pending; this.pending = null; p?.resolve(m); });
    // Only the current process's end fails what it was asked: one stopped after a time-out ends
    // (asynchronously) while its successor loads, and must not fail that load and, in turn, every
    // mutant after it (they were counted as runtime errors, "other", and left out of the score).
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (this.child !== child) return;
      this.child = null;
      const p = this.pending; this.pending = null;
      p?.reject(new Error(`the test process ended (${signal ?? code})`));
    });
    const { tests, error } = await this.send({ cmd: 'load', files: this.files });
    if (error) throw new Error(`loading the test files: ${error}`);
    this.order = tests.map((t) => t.id).filter((id) => !this.skip.some((re) => re.test(id)));
  }

  stop() {
    if (this.child) { const c = this.child; this.child = null; c.kill('SIGKILL'); }
  }

  send(msg, timeoutMs) {
    return new Promise((resolve, reject) => {
      let timer;
      this.pending = {
        resolve: (m) => { clearTimeout(timer); resolve(m); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      };
      if (timeoutMs) timer = setTimeout(() => { const p = this.pending; this.pending = null; this.stop(); p?.reject(Object.assign(new Error('timeout'), { timeout: true })); }, timeoutMs);
      this.child.send(msg);
    });
  }

  async init() {
    await this.start();
    if (existsSync(TIMES)) this.ms = new Map(Object.entries(JSON.parse(readFileSync(TIMES, 'utf8'))));
  }

  async dispose() {
    this.stop();
  }

  async dryRun(options) {
    if (!this.child) await this.start();
    const r = await this.send({ cmd: 'run', ids: this.order, bail: false, coverage: options.coverageAnalysis !== 'off' });
    if (r.error) return { status: DryRunStatus.Error, errorMessage: r.error };
    this.ms = new Map(r.results.map((t) => [t.id, t.ms]));
    writeFileSync(TIMES, JSON.stringify(Object.fromEntries(this.ms)));
    return {
      status: DryRunStatus.Complete,
      tests: r.results.map(toTestResult),
      mutantCoverage: options.coverageAnalysis === 'off' ? undefined : r.coverage,
    };
  }

  async mutantRun(options) {
    const wanted = options.testFilter ? new Set(options.testFilter) : null;
    const time = (id) => this.ms.get(id) ?? Infinity;
    const file = options.activeMutant.fileName.replace(/\\/g, '/');
    const own = this.testsOf.find(([m]) => (m.endsWith('/') ? file.includes(`/${m}`) : file.endsWith(`/${m}`)))?.[1];
    const mine = (id) => !own || own.includes(id.slice(0, id.indexOf(': ')));
    const ids = (wanted ? this.order.filter((id) => wanted.has(id)) : this.order.slice()).filter(mine).sort((a, b) => time(a) - time(b));
    // Stryker's time limit counts every test that reaches the mutant; these are fewer (testsOf).
    const limit = Math.min(options.timeout, 2 * ids.reduce((sum, id) => sum + Math.min(time(id), 60000), 0) + 5000);
    const attempt = async () => {
      if (!this.child) await this.start();
      const r = await this.send({ cmd: 'run', ids, mutant: options.activeMutant.id, hitLimit: options.hitLimit, bail: !options.disableBail }, limit);
      if (r.error) throw new Error(r.error);
      return r;
    };
    let r;
    try {
      r = await attempt();
      if (options.hitLimit && r.hitCount > options.hitLimit) return { status: MutantRunStatus.Timeout, reason: `hit limit reached (${r.hitCount}/${options.hitLimit})` };
      const failed = r.results.filter((t) => !t.ok);
      if (failed.length) {
        // The same test with no mutant: if it fails too, this process is spoilt; start afresh.
        const again = await this.send({ cmd: 'run', ids: [failed[0].id], bail: true }, limit);
        if (again.error || !again.results[0]?.ok) {
          this.log.debug(`test process replaced after ${failed[0].id} failed with no mutant`);
          await this.start();
          r = await attempt();
        }
      }
    } catch (err) {
      if (err.timeout) return { status: MutantRunStatus.Timeout, reason: `no answer in ${limit} ms` };
      this.stop();
      return { status: MutantRunStatus.Error, errorMessage: String(err.message) };
    }
    if (options.hitLimit && r.hitCount > options.hitLimit) return { status: MutantRunStatus.Timeout, reason: `hit limit reached (${r.hitCount}/${options.hitLimit})` };
    const failed = r.results.filter((t) => !t.ok);
    if (failed.length) return { status: MutantRunStatus.Killed, failureMessage: failed[0].message, killedBy: failed.map((t) => t.id), nrOfTests: r.results.length };
    return { status: MutantRunStatus.Survived, nrOfTests: r.results.length };
  }
}

function toTestResult(t) {
  const base = { id: t.id, name: t.id, fileName: t.id.slice(0, t.id.indexOf(': ')), timeSpentMs: Math.round(t.ms) };
  return t.ok ? { ...base, status: TestStatus.Success } : { ...base, status: TestStatus.Failed, failureMessage: t.message };
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'node-test-in-process', InProcessNodeTestRunner)];
export const strykerValidationSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { nodeTest: { type: 'object', properties: { testFiles: { type: 'array', items: { type: 'string' } }, skip: { type: 'array', items: { type: 'string' } }, testsOf: { type: 'object' } } } },
};
