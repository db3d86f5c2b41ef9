// scripts/native-env.js: the environment of every native build. Which libclang it picks,
// that it stops with one actionable line when it cannot get one, and its zip reader.
// (The real download is exercised by a fresh clone's `npm install`, see docs/install.md.)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const { nativeEnv, unzipMember, Stop } = require('../scripts/native-env.js');

/** A zip archive of the given members, the first stored, the others deflated. */
function zip(members: Record<string, Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  Object.entries(members).forEach(([name, data], i) => {
    const method = i === 0 ? 0 : 8;
    const body = method === 0 ? data : deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, body);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + body.length;
  });
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(members).length, 8);
  end.writeUInt16LE(Object.keys(members).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('unzipMember', () => {
  const library = Buffer.alloc(100_000, 'libclang ');
  const archive = zip({
    'libclang-18.1.1.dist-info/METADATA': Buffer.from('Name: libclang'),
    'libclang-18.1.1.data/platlib/clang/native/libclang.so': library,
  });

  it('inflates the member whose name ends with the suffix', () => {
    expect(unzipMember(archive, '/clang/native/libclang.so').equals(library)).toBe(true);
    expect(unzipMember(archive, '/METADATA').toString()).toBe('Name: libclang');
  });

  it('names what is missing', () => {
    expect(() => unzipMember(archive, '/clang/native/libclang.dll')).toThrow(
      'no /clang/native/libclang.dll in the archive',
    );
    expect(() => unzipMember(Buffer.from('not a zip at all, just some bytes'), 'x')).toThrow('not a zip archive');
  });
});

describe.runIf(process.platform === 'linux')('nativeEnv on Linux', () => {
  const saved = { ...process.env };
  const realFetch = globalThis.fetch;
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'native-env-'));
    delete process.env.LIBCLANG_PATH;
    delete process.env.BINDGEN_EXTRA_CLANG_ARGS;
    process.env.XDG_CACHE_HOME = join(dir, 'cache');
    globalThis.fetch = () => Promise.reject(new Error('no network in this test'));
  });
  afterEach(() => {
    process.env = { ...saved };
    globalThis.fetch = realFetch;
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses LIBCLANG_PATH as it is when it holds a libclang', async () => {
    mkdirSync(join(dir, 'llvm'));
    writeFileSync(join(dir, 'llvm', 'libclang.so.18'), '');
    process.env.LIBCLANG_PATH = join(dir, 'llvm');
    const env = await nativeEnv();
    expect(env.LIBCLANG_PATH).toBe(join(dir, 'llvm'));
    expect(env.BINDGEN_EXTRA_CLANG_ARGS).toBeUndefined();
  });

  it('stops with one line when LIBCLANG_PATH holds none', async () => {
    process.env.LIBCLANG_PATH = dir;
    await expect(nativeEnv()).rejects.toThrow(Stop);
    await expect(nativeEnv()).rejects.toThrow(
      /^ledger-node: LIBCLANG_PATH=.* holds no libclang\.so: .*`unset LIBCLANG_PATH`/,
    );
  });

  it('otherwise takes the pinned libclang from the cache, with the C compiler builtin headers', async () => {
    const pinned = join(dir, 'cache', 'ledger-node', 'libclang-18.1.1');
    mkdirSync(pinned, { recursive: true });
    writeFileSync(join(pinned, 'libclang.so'), '');
    const env = await nativeEnv();
    expect(env.LIBCLANG_PATH).toBe(pinned);
    expect(env.BINDGEN_EXTRA_CLANG_ARGS).toMatch(/^-isystem \/\S+\/include$/);
    // The same answer on every call: cargo must see the same variables each time.
    expect(await nativeEnv()).toEqual(env);
  });

  it('stops with the command that fetches the wheel when it cannot fetch it', async () => {
    const error = await nativeEnv().catch((e: Error) => e);
    expect(error).toBeInstanceOf(Stop);
    expect(error.message).toContain('could not fetch libclang 18.1.1 from PyPI (no network in this test)');
    expect(error.message).toContain(
      `pip download libclang==18.1.1 --no-deps --only-binary=:all: -d ${join(dir, 'cache', 'ledger-node')}`,
    );
    expect(error.message).not.toContain('\n');
  });

  it('refuses a download whose SHA-256 is not the pinned one', async () => {
    globalThis.fetch = (async () => new Response('something else')) as typeof fetch;
    await expect(nativeEnv()).rejects.toThrow(/its SHA-256 is [0-9a-f]{64}, not [0-9a-f]{64}/);
  });
});
