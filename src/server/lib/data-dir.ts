import { accessSync, constants, existsSync, mkdirSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { currentUserName } from "#server/config";
import { StartError } from "./start-error";

/** Free space the first start needs (the new PostgreSQL cluster and its first WAL segments take about 50 MB). */
export const FIRST_START_FREE_BYTES = 128 * 1024 * 1024;

const asRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

const userName = () => currentUserName();

/** The mount point holding p (the nearest ancestor on another device), for the remount command. */
function mountPoint(p: string): string {
  let dir = p;
  const dev = statSync(dir).dev;
  while (dir !== path.dirname(dir) && statSync(path.dirname(dir)).dev === dev) dir = path.dirname(dir);
  return dir;
}

function explain(dir: string, err: NodeJS.ErrnoException, what: string): StartError {
  switch (err.code) {
    case "ENOTDIR":
    case "EEXIST":
      return new StartError(
        `DATA_DIR ${dir} is a file, not a folder (or lies under one): move that file away, or start with a folder, e.g. DATA_DIR=${dir}.d npm start.`,
      );
    case "EROFS":
      return new StartError(
        `DATA_DIR ${dir} is on a read-only file system: remount it read-write (mount -o remount,rw ${existsSync(dir) ? mountPoint(dir) : path.dirname(dir)}), or start with a writable folder, e.g. DATA_DIR=/var/lib/hearth-data npm start.`,
      );
    case "ENOSPC":
    case "EDQUOT":
      return new StartError(
        `The disk holding DATA_DIR ${dir} is full: free some space there (df -h ${dir} shows it), or start with a folder on another disk, e.g. DATA_DIR=/other/disk/hearth npm start.`,
      );
    case "EACCES":
    case "EPERM":
      return new StartError(
        asRoot()
          ? `Hearth cannot ${what} DATA_DIR ${dir} even as root (the folder is probably immutable): run chattr -i ${dir}, or start with another folder, e.g. DATA_DIR=/var/lib/hearth-data npm start.`
          : `Hearth cannot ${what} DATA_DIR ${dir} as ${userName()}: give this user the folder (sudo chown -R ${userName()} ${dir}), or start with a folder it owns, e.g. DATA_DIR=$HOME/hearth-data npm start.`,
      );
    default:
      return new StartError(
        `Hearth cannot ${what} DATA_DIR ${dir} (${err.code ?? err.message}): fix the folder, or start with another one, e.g. DATA_DIR=$HOME/hearth-data npm start.`,
      );
  }
}

/** A recursive mkdir says ENOENT for a read-only parent: ask the nearest existing folder why. */
function whyNot(dir: string, err: NodeJS.ErrnoException): NodeJS.ErrnoException {
  if (err.code !== "ENOENT") return err;
  let parent = path.dirname(dir);
  while (!existsSync(parent) && parent !== path.dirname(parent)) parent = path.dirname(parent);
  try {
    if (!statSync(parent).isDirectory()) return Object.assign(new Error("not a folder"), { code: "ENOTDIR" });
    accessSync(parent, constants.W_OK);
  } catch (e) {
    return e as NodeJS.ErrnoException;
  }
  return err;
}

/**
 * Before anything is written: DATA_DIR must be a folder Hearth can create files in, on a disk with
 * room. Each failure is one sentence naming the path and the fix (a StartError), so a bad DATA_DIR
 * stops the start before a half-made cluster or secret is left behind.
 */
export function checkDataDir(dir: string): void {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
    if (!isDir) throw Object.assign(new Error("not a folder"), { code: "ENOTDIR" });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code !== "ENOENT") throw explain(dir, e, "use");
  }
  if (!isDir) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw explain(dir, whyNot(dir, err as NodeJS.ErrnoException), "create");
    }
  }
  const probe = path.join(dir, `.hearth-write-check-${process.pid}`);
  try {
    writeFileSync(probe, Buffer.alloc(64 * 1024), { flush: true });
  } catch (err) {
    throw explain(dir, err as NodeJS.ErrnoException, "write in");
  } finally {
    rmSync(probe, { force: true });
  }
  if (!existsSync(path.join(dir, "postgres", "PG_VERSION"))) {
    const fs = statfsSync(dir);
    const free = fs.bavail * fs.bsize;
    if (free < FIRST_START_FREE_BYTES) {
      throw new StartError(
        `The disk holding DATA_DIR ${dir} has ${Math.floor(free / 1048576)} MB free and the first start needs ${FIRST_START_FREE_BYTES / 1048576} MB: free some space there (df -h ${dir} shows it), or start with a folder on another disk, e.g. DATA_DIR=/other/disk/hearth npm start.`,
      );
    }
  }
}
