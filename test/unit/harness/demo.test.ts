/**
 * `npm run demo` on a desktop with `code` on PATH. Desktop VS Code cannot run here, so a stand-in
 * `code` on PATH records what it is given and probes the local endpoint while it "runs"; the real
 * harness script runs unchanged (with --no-build: the stand-in needs no bundles).
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const DEMO = join(ROOT, 'test', 'harness', 'demo.mjs');
const SAMPLE = join(ROOT, 'test', 'fixtures', 'workspace');
const BULLETIN = join('bulletins', '2026-11-茶园冬季管理.md');

/** Every file under a folder, relative to it, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/**
 * A stand-in `code`: writes its arguments and what it sees, writes into the workspace it was given
 * as an author would (an edit of the bulletin, a saved recognition picture), then exits or waits
 * for a signal.
 */
const FAKE_CODE = `#!/bin/sh
out="$FAKE_CODE_OUT"
printf '%s\\n' "$@" > "$out/args"
for a in "$@"; do case "$a" in *.md) bulletin="$a" ;; esac; done
if [ -f "$bulletin" ]; then
  echo "作者的修改" >> "$bulletin"
  mkdir -p "$(dirname "$bulletin")/../images/recognition" && echo png > "$(dirname "$bulletin")/../images/recognition/saved.png"
fi
printf '%s' "$SHUNONG_ENDPOINT" > "$out/endpoint"
if [ -n "$SHUNONG_API_KEY" ]; then echo yes > "$out/has-key"; fi
node -e 'fetch(process.env.SHUNONG_ENDPOINT, { method: "POST" }).then((r) => console.log(r.status), (e) => console.log("down " + e.cause?.code))' > "$out/probe"
echo $$ > "$out/pid.part" && mv "$out/pid.part" "$out/pid"
if [ "$FAKE_CODE_WAIT" = 1 ]; then while :; do sleep 1; done; fi
`;

async function probe(url: string): Promise<string> {
  return fetch(url, { method: 'POST' }).then(
    (r) => String(r.status),
    (e: { cause?: { code?: string } }) => `down ${e.cause?.code ?? ''}`,
  );
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** What Linux says of a process (`/proc/<pid>/stat`), for a failure's message. */
function procState(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').trim();
  } catch (e) {
    return String(e);
  }
}

describe('npm run demo: the desktop path (a stand-in `code` on PATH)', function () {
  this.timeout(60_000);
  let dir: string;
  let out: string;
  /** The scratch copy of the sample workspace (--workspace: a developer's own copy stays untouched). */
  let workspace: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shunong-demo-'));
    out = join(dir, 'out');
    workspace = join(dir, 'workspace');
    mkdirSync(out);
    writeFileSync(join(dir, 'code'), FAKE_CODE);
    chmodSync(join(dir, 'code'), 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function runDemo(wait: boolean, ...flags: string[]): ChildProcess {
    return spawn(process.execPath, [DEMO, '--no-build', '--workspace', workspace, ...flags], {
      cwd: ROOT,
      env: {
        ...process.env,
        PATH: `${dir}:${process.env.PATH ?? ''}`,
        FAKE_CODE_OUT: out,
        FAKE_CODE_WAIT: wait ? '1' : '0',
      },
      stdio: 'ignore',
    });
  }

  it('opens the sample workspace in a separate desktop instance in development mode, with the endpoint up; ends when the window closes', async () => {
    const code = await exited(runDemo(false));
    assert.equal(code, 0);
    const args = readFileSync(join(out, 'args'), 'utf8').trim().split('\n');
    assert.ok(args.includes('--new-window') && args.includes('--wait'), args.join(' '));
    assert.ok(
      args.includes(`--extensionDevelopmentPath=${ROOT}`),
      'the extension is loaded from the repository in development mode',
    );
    assert.ok(
      args.includes('--user-data-dir') && args.includes('--extensions-dir'),
      'its own profile: the user’s settings and keys are untouched',
    );
    assert.ok(args.includes(workspace), `the scratch copy of the sample workspace: ${args.join(' ')}`);
    assert.ok(args.includes(join(workspace, BULLETIN)), 'the draft bulletin, in the copy');
    const endpoint = readFileSync(join(out, 'endpoint'), 'utf8');
    assert.match(endpoint, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(readFileSync(join(out, 'has-key'), 'utf8').trim(), 'yes', 'the key travels in the environment');
    assert.equal(
      readFileSync(join(out, 'probe'), 'utf8').trim(),
      '401',
      'the local endpoint answered while VS Code ran',
    );
    assert.match(await probe(endpoint), /^down/, 'the endpoint is stopped once the window is closed');
  });

  it('works in a copy of the sample workspace: the author’s edits and saved pictures stay there, kept for the next run until --fresh', async function () {
    this.timeout(120_000); // three runs of the demo, each starting the local endpoint
    const before = filesUnder(SAMPLE);
    const bulletinBefore = readFileSync(join(SAMPLE, BULLETIN), 'utf8');
    assert.equal(await exited(runDemo(false)), 0);
    const copied = filesUnder(workspace);
    for (const f of before.filter((f) => !/^\.[^/]*-(test|e2e)-/.test(f))) assert.ok(copied.includes(f), `${f} copied`);
    assert.ok(
      copied.some((f) => /^photos\/.+\.jpg$/.test(f)),
      `crop photos to recognise: ${copied.join(', ')}`,
    );
    assert.ok(copied.includes(join('images', 'recognition', 'saved.png')), 'the picture was saved in the copy');
    assert.match(readFileSync(join(workspace, BULLETIN), 'utf8'), /作者的修改\n$/);
    assert.deepEqual(filesUnder(SAMPLE), before, 'nothing lands in the sample workspace');
    assert.equal(readFileSync(join(SAMPLE, BULLETIN), 'utf8'), bulletinBefore, 'the sample bulletin is unchanged');

    assert.equal(await exited(runDemo(false)), 0);
    assert.match(readFileSync(join(workspace, BULLETIN), 'utf8'), /作者的修改\n作者的修改\n$/, 'kept for the next run');
    assert.equal(await exited(runDemo(false, '--fresh')), 0);
    assert.equal(
      readFileSync(join(workspace, BULLETIN), 'utf8'),
      `${bulletinBefore}作者的修改\n`,
      '--fresh starts from the sample again',
    );
  });

  it('refuses a scratch copy inside the repository outside test-output/, and the sample stays whole', async () => {
    const before = filesUnder(SAMPLE);
    const demo = spawn(process.execPath, [DEMO, '--no-build', '--workspace', SAMPLE, '--fresh'], {
      cwd: ROOT,
      env: { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}`, FAKE_CODE_OUT: out },
      stdio: 'ignore',
    });
    assert.equal(await exited(demo), 1);
    assert.ok(!existsSync(join(out, 'args')), 'VS Code was not started');
    assert.deepEqual(filesUnder(SAMPLE), before);
  });

  it('Ctrl-C stops VS Code and the endpoint', async () => {
    const demo = runDemo(true);
    const done = exited(demo);
    const pidFile = join(out, 'pid');
    for (let i = 0; i < 200 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(existsSync(pidFile), 'the stand-in `code` was started');
    // Written whole (a rename), so it is never read half-written: an empty file would read as
    // pid 0, which `kill(0, 0)` takes for this process group: "alive".
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(Number.isInteger(pid) && pid > 1, `the stand-in's pid: ${pid}`);
    const endpoint = readFileSync(join(out, 'endpoint'), 'utf8');
    assert.equal(await probe(endpoint), '401');
    demo.kill('SIGINT');
    assert.equal(await done, 130);
    assert.equal(alive(pid), false, `the desktop VS Code process was stopped: ${procState(pid)}`);
    assert.match(await probe(endpoint), /^down/, 'the endpoint was stopped');
  });
});
