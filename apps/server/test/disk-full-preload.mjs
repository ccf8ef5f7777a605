// Loaded with `node --import` by demo-start.test.ts: every write into DATA_DIR fails as on a full disk
// (ENOSPC), everything else (the console, tsx's cache) writes as usual.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';

const dataDir = resolve(process.env.DATA_DIR ?? './data');
const inDataDir = (path) => typeof path === 'string' && resolve(path).startsWith(dataDir);
const full = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
    errno: -28,
    syscall: 'write',
  });
const openFds = new Set();

const { openSync, writeSync, writeFileSync, appendFileSync } = fs;
fs.openSync = function (path, ...rest) {
  const fd = openSync.call(this, path, ...rest);
  if (inDataDir(path)) openFds.add(fd);
  return fd;
};
fs.writeSync = function (fd, ...rest) {
  if (openFds.has(fd)) throw full();
  return writeSync.call(this, fd, ...rest);
};
fs.writeFileSync = function (path, ...rest) {
  if (inDataDir(path)) throw full();
  return writeFileSync.call(this, path, ...rest);
};
fs.appendFileSync = function (path, ...rest) {
  if (inDataDir(path)) throw full();
  return appendFileSync.call(this, path, ...rest);
};
const { writeFile } = fs.promises;
fs.promises.writeFile = async function (path, ...rest) {
  if (inDataDir(path)) throw full();
  return writeFile.call(this, path, ...rest);
};
syncBuiltinESMExports();
