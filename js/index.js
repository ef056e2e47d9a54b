// jungletb for JavaScript: Jungle endgame tablebases probed by the
// jungletb probe library compiled to WebAssembly (jungletb.wasm, built from
// crates/wasm by build.sh). Tables come from a static host by HTTP range
// requests, from local files (Node), or from memory.
//
// The module never blocks: a probe that needs bytes not fetched yet
// replies with the ranges to fetch; this file fetches them (all of them at
// once) and asks again. See crates/wasm/src/lib.rs for the exports.

const isNode = typeof process !== "undefined" && !!process.versions?.node;

/** The base class of every error this package throws. `kind` is the HTTP
 * API's error kind (`notation`, `missing_table`, …). */
export class JungleError extends Error {
  constructor(message, kind, options) {
    super(message, options);
    this.name = new.target.name;
    this.kind = kind;
  }
}
/** The position text does not parse, or the position cannot occur. */
export class PositionError extends JungleError {}
/** No table holds the position (the site or directory lacks it). */
export class MissingTableError extends JungleError {}
/** A table is damaged (a check failed) or not a jungletb table. */
export class BadTableError extends JungleError {}
/** The tables, or the options asked for, are of another rule set. */
export class RulesError extends JungleError {}
/** The host failed: a network error, an HTTP error, a `Range` ignored. */
export class HostError extends JungleError {}
/** An option this package does not know (`{rule: …}` for `{rules: …}`), or
 * an argument of the wrong type: refused, never ignored. */
export class OptionsError extends JungleError {}

function errorOf(answer) {
  const { error, kind } = answer;
  switch (kind) {
    case "notation":
    case "impossible_position":
    case "game_over":
      return new PositionError(error, kind);
    case "missing_table":
    case "no_tables":
      return new MissingTableError(error, kind);
    case "ruleset_mismatch":
    case "rules":
      return new RulesError(error, kind);
    case "bad_table":
      return new BadTableError(error, kind);
    default:
      return new JungleError(error, kind);
  }
}

let wasmPromise = null;

/** Loads the WebAssembly module (once). `source`: a URL, bytes or a
 * `WebAssembly.Module`; by default `jungletb.wasm` beside this file. */
export function init(source) {
  if (!wasmPromise) {
    wasmPromise = instantiate(source).catch((e) => {
      wasmPromise = null;
      throw e;
    });
  }
  return wasmPromise;
}

async function instantiate(source) {
  source ??= new URL("./jungletb.wasm", import.meta.url);
  let module;
  if (source instanceof WebAssembly.Module) {
    module = source;
  } else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    module = await WebAssembly.compile(source);
  } else if (isNode && String(source).startsWith("file:")) {
    const { readFile } = await import("node:fs/promises");
    module = await WebAssembly.compile(await readFile(new URL(source)));
  } else {
    const response = await fetch(source);
    if (!response.ok) {
      throw new HostError(`${source}: HTTP ${response.status} loading the WebAssembly module`, "host");
    }
    module = await WebAssembly.compile(await response.arrayBuffer());
  }
  const instance = await WebAssembly.instantiate(module, {});
  return new Wasm(instance.exports);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The exports, with strings and bytes passed through the module's memory. */
class Wasm {
  constructor(x) {
    this.x = x;
    // Strings are written into one scratch area, kept between calls (a
    // probe passes a position text: no allocation per probe).
    this.scratch = 0;
    this.scratchLen = 0;
  }

  /** The scratch area, at least `n` bytes. */
  area(n) {
    if (n > this.scratchLen) {
      if (this.scratch) this.x.jtb_dealloc(this.scratch, this.scratchLen);
      this.scratchLen = Math.max(n, 1024);
      this.scratch = this.x.jtb_alloc(this.scratchLen);
    }
    return this.scratch;
  }

  /** Calls `f` with (pointer, length) pairs of `args` copied in. */
  call(f, ...args) {
    const held = [];
    const flat = [];
    try {
      let used = 0;
      const texts = args.filter((a) => typeof a === "string");
      const room = texts.reduce((n, t) => n + 3 * t.length, 0);
      const base = room ? this.area(room) : 0;
      for (const a of args) {
        if (typeof a === "string") {
          const view = new Uint8Array(this.x.memory.buffer, base + used, room - used);
          const { written } = encoder.encodeInto(a, view);
          flat.push(base + used, written);
          used += written;
        } else if (a instanceof Uint8Array) {
          const ptr = this.x.jtb_alloc(a.length);
          new Uint8Array(this.x.memory.buffer, ptr, a.length).set(a);
          held.push([ptr, a.length]);
          flat.push(ptr, a.length);
        } else {
          flat.push(a);
        }
      }
      return f(...flat);
    } finally {
      for (const [ptr, len] of held) this.x.jtb_dealloc(ptr, len);
    }
  }

  reply() {
    const ptr = this.x.jtb_reply_ptr();
    const len = this.x.jtb_reply_len();
    return decoder.decode(new Uint8Array(this.x.memory.buffer, ptr, len));
  }

  /** [status, parsed reply] of a call. */
  ask(f, ...args) {
    const status = this.call(f, ...args);
    return [status, JSON.parse(this.reply())];
  }
}

/** The options `Position.parse` reads. */
const RULES_KEYS = ["ruleset", "rules", "wasm"];
/** The options `Tablebase.open` reads. */
const OPEN_KEYS = [
  ...RULES_KEYS, "memory", "wholeFileBelow", "wholeFallbackMax", "pageBytes", "maxCachedBytes", "maxDecodedBytes", "fetch",
];

/** The options `probe` reads. */
const PROBE_KEYS = ["replies"];

/** Refuses options this package does not read: a misspelt key must not
 * leave the tables or a position under rules the caller did not ask for. */
function checkOptions(options, known, what) {
  if (options === null || typeof options !== "object") {
    throw new OptionsError(`${what}: options must be an object, not ${options === null ? "null" : typeof options}`, "options");
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new OptionsError(`${what}: unknown option '${key}' (known: ${known.join(", ")})`, "options");
    }
  }
  const { ruleset, rules } = options;
  if (ruleset !== undefined && typeof ruleset !== "string") {
    throw new OptionsError(`${what}: ruleset must be a string such as "standard"`, "options");
  }
  if (rules !== undefined && (rules === null || typeof rules !== "object" || Array.isArray(rules))) {
    throw new OptionsError(`${what}: rules must be an object such as {wolf_outranks_dog: "true"}`, "options");
  }
}

/** The rule options as the module reads them: every value a string. */
function ruleStrings(rules) {
  return Object.fromEntries(Object.entries(rules ?? {}).map(([k, v]) => [k, String(v)]));
}

/** Two rule-set labels name the same rules: custom rule sets with the same
 * options have the same id whatever base they were named from. */
function sameRules(a, b) {
  const id = (label) => label.replace(/^.*-custom-/, "custom-");
  return id(a) === id(b);
}

function spec(options, name) {
  const s = { ruleset: options.ruleset ?? "standard", rules: ruleStrings(options.rules) };
  if (name) s.name = name;
  s.page_bytes = options.pageBytes ?? 4096;
  if (options.maxCachedBytes !== undefined) s.max_cached_bytes = options.maxCachedBytes;
  if (options.maxDecodedBytes !== undefined) s.max_decoded_bytes = options.maxDecodedBytes;
  return JSON.stringify(s);
}

/** A position and its legal moves under a rule set: no tables needed. */
export class Position {
  constructor(wasm, specText, answer) {
    this._wasm = wasm;
    this._spec = specText;
    const { ruleset, rules } = JSON.parse(specText);
    /** The named rule set these rules start from (`"popular"`). */
    this.ruleset = ruleset;
    /** The rule options over `ruleset` (`{wolf_outranks_dog: "true"}`). */
    this.rules = rules;
    /** The rule set's label, as table directories are named (`standard`,
     * or `popular-custom-<id>` for options no named rule set has). A
     * tablebase answers a Position only under its own rules. */
    this.rulesetLabel = answer.ruleset;
    /** The position in jungletb notation. */
    this.text = answer.position;
    /** `"w"` or `"b"`. */
    this.sideToMove = answer.side_to_move;
    /** Every legal move: `{move, capture, den, after}`. */
    this.moves = answer.moves;
    /** `"den"`, `"no_pieces"`, `"no_moves"` or `null`. */
    this.gameOver = answer.game_over;
  }

  /** Parses `text` under `options.ruleset` (default `standard`) and
   * `options.rules`; throws a `PositionError` with the reason. */
  static async parse(text, options = {}) {
    checkOptions(options, RULES_KEYS, "Position.parse");
    if (typeof text !== "string") {
      throw new OptionsError(`Position.parse: a position text, not ${typeof text}`, "options");
    }
    const wasm = await init(options.wasm);
    return Position._parse(wasm, spec(options), text);
  }

  static _parse(wasm, specText, text) {
    const [status, answer] = wasm.ask(wasm.x.jtb_moves, specText, String(text));
    if (status !== 0) throw errorOf(answer);
    return new Position(wasm, specText, answer);
  }

  /** The position after `move` (`"a1b1"`), which must be legal. */
  play(move) {
    const m = this.moves.find((x) => x.move === move);
    if (!m) {
      throw new PositionError(`${move} is not a legal move in ${this.text}`, "notation");
    }
    return Position._parse(this._wasm, this._spec, m.after);
  }

  toString() {
    return this.text;
  }
}

/** Where a tablebase's files come from: HTTP, local files, memory. */
class HttpFiles {
  constructor(base, fetchImpl, fallbackMax) {
    this.base = base.endsWith("/") ? base : base + "/";
    this.fetch = fetchImpl;
    this.fallbackMax = fallbackMax;
  }

  url(file) {
    return new URL(file, this.base).href;
  }

  async json(file) {
    let r;
    this.requests = (this.requests ?? 0) + 1;
    try {
      r = await this.fetch(this.url(file));
    } catch (e) {
      throw new HostError(`${this.url(file)}: ${e.message}`, "host", { cause: e });
    }
    if (r.status === 404) return null;
    if (!r.ok) throw new HostError(`${this.url(file)}: HTTP ${r.status}`, "host");
    return r.json();
  }

  /** Bytes `at`..`at + len` of `file` (`len` undefined: the whole file).
   * Returns `{bytes, whole}`: `whole` when the host sent the whole file. */
  async read(file, at, len, size) {
    const url = this.url(file);
    const headers = len === undefined ? {} : { Range: `bytes=${at}-${at + len - 1}` };
    let r;
    try {
      r = await this.fetch(url, { headers });
    } catch (e) {
      throw new HostError(`${url}: ${e.message}`, "host", { cause: e });
    }
    if (r.status === 404) {
      throw new MissingTableError(`${url}: this site has no such table (HTTP 404)`, "missing_table");
    }
    if (r.status === 206 && len !== undefined) {
      const range = r.headers.get("content-range") ?? "";
      const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(range.trim());
      if (!m || Number(m[1]) !== at || Number(m[2]) !== at + len - 1) {
        throw new HostError(`${url}: asked for bytes ${at}-${at + len - 1}, got '${range}'`, "host");
      }
      const bytes = new Uint8Array(await r.arrayBuffer());
      if (bytes.length !== len) {
        throw new HostError(`${url}: ${bytes.length} bytes for a range of ${len}`, "host");
      }
      return { bytes, whole: false };
    }
    if (r.status === 200) {
      if (len !== undefined && size > this.fallbackMax) {
        await r.body?.cancel();
        throw new HostError(
          `${url}: the host ignores Range requests (HTTP 200 with the whole file, ${size} bytes, ` +
            `above the ${this.fallbackMax} read whole instead); serve the site from a host that ` +
            `answers ranges (206)`,
          "host",
        );
      }
      const bytes = new Uint8Array(await r.arrayBuffer());
      if (bytes.length !== size) {
        throw new HostError(`${url}: ${bytes.length} bytes, the manifest says ${size}`, "host");
      }
      return { bytes, whole: true };
    }
    throw new HostError(`${url}: HTTP ${r.status}`, "host");
  }
}

class LocalFiles {
  constructor(dir) {
    this.dir = dir;
  }

  url(file) {
    return `${this.dir}/${file}`;
  }

  async read(file, at, len) {
    const { open } = await import("node:fs/promises");
    let fh;
    try {
      fh = await open(this.url(file), "r");
    } catch (e) {
      if (e.code === "ENOENT") {
        throw new MissingTableError(`${this.url(file)}: no such table file`, "missing_table");
      }
      throw new HostError(`${this.url(file)}: ${e.message}`, "host", { cause: e });
    }
    try {
      if (len === undefined) return { bytes: new Uint8Array(await fh.readFile()), whole: true };
      const bytes = new Uint8Array(len);
      const { bytesRead } = await fh.read(bytes, 0, len, at);
      if (bytesRead !== len) throw new BadTableError(`${this.url(file)}: shorter than listed`, "bad_table");
      return { bytes, whole: false };
    } finally {
      await fh.close();
    }
  }
}

/** Lists the tables of a local rule-set directory: `[{material, file, bytes}]`
 * (a material's compressed file where both are there). */
async function listLocal(dir) {
  const { readdir, stat } = await import("node:fs/promises");
  let names;
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  const byMaterial = new Map();
  for (const name of names.sort()) {
    const m = /^([A-Za-z]+v[A-Za-z]+)\.(jtbz|jtb)$/.exec(name);
    if (!m) continue;
    if (byMaterial.has(m[1]) && m[2] === "jtb") continue;
    byMaterial.set(m[1], { material: m[1], file: name, bytes: (await stat(`${dir}/${name}`)).size });
  }
  return byMaterial.size ? [...byMaterial.values()] : null;
}

/** A custom rule set's label: `[label, base]`. */
const CUSTOM_LABEL = /^(standard|leiden|popular)-custom-[0-9a-f]{16}$/;

/** The options of the custom rule set `label`, from the `rulesets.json` of
 * the site at `loc`; `requests` made. */
async function customRules(loc, local, options, label) {
  if (options.rules !== undefined) {
    throw new OptionsError(`Tablebase.open: '${label}' names its rules already; give ruleset alone`, "options");
  }
  let list = null;
  let requests = 0;
  if (local) {
    const { readFile } = await import("node:fs/promises");
    try {
      list = JSON.parse(await readFile(`${loc.replace(/\/+$/, "")}/rulesets.json`, "utf8"));
    } catch {
      list = null;
    }
  } else {
    const base = new URL(loc, globalThis.location?.href ?? undefined).href;
    const http = new HttpFiles(base, options.fetch ?? globalThis.fetch.bind(globalThis), 0);
    list = await http.json("rulesets.json");
    requests = 1;
  }
  const entry = list?.rulesets?.find((r) => r.label === label);
  if (!entry?.options) {
    throw new RulesError(
      `${loc}: no rulesets.json listing '${label}' (a site's); for a tables directory give the ` +
        `base and its options, e.g. { ruleset: "${label.split("-custom-")[0]}", rules: { … } }`,
      "unknown_ruleset",
    );
  }
  return { options: entry.options, requests };
}

/** The tables of a local site directory's manifest.json, or null. */
async function readManifest(dir, label) {
  const { readFile } = await import("node:fs/promises");
  let manifest;
  try {
    manifest = JSON.parse(await readFile(`${dir}/manifest.json`, "utf8"));
  } catch {
    return null;
  }
  if (manifest.ruleset !== label) {
    throw new RulesError(`${dir}/manifest.json: these tables are of rule set '${manifest.ruleset}', not '${label}'`, "ruleset_mismatch");
  }
  return manifest.tables;
}

/** Rounds of fetches a call may take before it is given up: a cold probe
 * takes a handful (the table's opening, its blocks, its sub-tables'); a
 * cold mainline a few per ply of the line. */
const MAX_ROUNDS = 2000;

/** Jungle endgame tablebases of one rule set. */
export class Tablebase {
  constructor(wasm, handle, files, tables, options, label) {
    this._wasm = wasm;
    this._h = handle;
    this._spec = spec(options);
    /** The named rule set the tables' rules start from (`"popular"`). */
    this.ruleset = options.ruleset ?? "standard";
    /** The rule options over `ruleset`, as given at open. */
    this.rules = ruleStrings(options.rules);
    /** The tables' rule-set label (their directory's name). */
    this.rulesetLabel = label;
    this._files = files;
    this._tables = tables;
    this._wholeBelow = options.wholeFileBelow ?? 65536;
    this._page = options.pageBytes ?? 4096;
    this._pending = new Map();
    /** Requests made, bytes fetched and rounds of fetches waited for, since
     * opening. */
    this.stats = { requests: 0, bytes: 0, rounds: 0 };
  }

  /**
   * Opens the tables at `location`: a site's or directory's tables root
   * (holding `<ruleset>/`) or one rule set's directory. A URL (`http:`,
   * `https:`, or relative in a browser) is read by HTTP range requests,
   * with the site's `manifest.json` listing the tables; in Node, a path is
   * a local directory.
   *
   * Options: `ruleset` (default `"standard"`; a custom rule set's label,
   * `popular-custom-…`, on a site: its options are read from the site's
   * `rulesets.json`), `rules` (rule options),
   * `memory` (read every table whole now), `wholeFileBelow` (tables up to
   * this size are fetched whole and checked by their checksum, default 64
   * KiB), `wholeFallbackMax` (a host that ignores `Range` and sends a
   * whole file: used up to this size, default 16 MiB, else a HostError),
   * `pageBytes`, `maxCachedBytes`, `fetch`, `wasm`.
   */
  static async open(location, options = {}) {
    checkOptions(options, OPEN_KEYS, "Tablebase.open");
    const wasm = await init(options.wasm);
    const loc = String(location);
    const local = isNode && !/^https?:/i.test(loc);
    let files;
    let tables = null;
    let opening = 0;
    const custom = CUSTOM_LABEL.exec(options.ruleset ?? "");
    if (custom) {
      // A custom rule set's label: its options from the site's list.
      const found = await customRules(loc, local, options, options.ruleset);
      opening += found.requests;
      options = { ...options, ruleset: custom[1], rules: found.options };
    }
    const [status, opened] = wasm.ask(wasm.x.jtb_open, spec(options, loc));
    const handle = status;
    if (handle === 0) throw errorOf(opened);
    const label = opened.label;
    try {
      if (custom && label !== custom[0]) {
        throw new RulesError(`${loc}: the options listed for '${custom[0]}' make rule set '${label}'`, "ruleset_mismatch");
      }
      if (local) {
        const root = loc.replace(/\/+$/, "");
        for (const dir of [`${root}/${label}`, root]) {
          // A site's directory: its manifest, as over HTTP; else the files.
          tables = (await readManifest(dir, label)) ?? (await listLocal(dir));
          if (tables) {
            files = new LocalFiles(dir);
            break;
          }
        }
        if (!tables) {
          throw new MissingTableError(`${loc}: no tables of rule set '${label}' (no ${root}/${label})`, "no_tables");
        }
      } else {
        const base = new URL(loc, globalThis.location?.href ?? undefined).href;
        const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
        for (const dir of [new URL(`${label}/`, base.endsWith("/") ? base : base + "/").href, base]) {
          const http = new HttpFiles(dir, fetchImpl, options.wholeFallbackMax ?? 16 << 20);
          const manifest = await http.json("manifest.json");
          opening += 1;
          if (!manifest) continue;
          if (manifest.ruleset !== label) {
            throw new RulesError(
              `${http.url("manifest.json")}: these tables are of rule set '${manifest.ruleset}', not '${label}'`,
              "ruleset_mismatch",
            );
          }
          files = http;
          tables = manifest.tables;
          break;
        }
        if (!tables) {
          throw new MissingTableError(`${loc}: this site has no tables of rule set '${label}' (no manifest.json)`, "no_tables");
        }
      }
      const tb = new Tablebase(wasm, handle, files, new Map(), options, label);
      // The requests of opening (rulesets.json, manifest.json) count too.
      tb.stats.requests += opening;
      for (const t of tables) {
        const entry = { ...t, plain: t.file.endsWith(".jtb"), whole: false };
        tb._tables.set(t.material, entry);
        tb._check(wasm.ask(wasm.x.jtb_add, handle, t.material, t.file, t.bytes));
      }
      if (options.memory) {
        await Promise.all([...tb._tables.values()].map((t) => tb._load({ material: t.material, file: t.file, at: 0, len: t.bytes }, true)));
      }
      return tb;
    } catch (e) {
      wasm.x.jtb_close(handle);
      throw e;
    }
  }

  /** The materials with a table (`["ELvR", …]`). */
  get materials() {
    return [...this._tables.keys()];
  }

  _check([status, answer]) {
    if (status === 2) throw errorOf(answer);
    return answer;
  }

  /** The ranges that opening each table of `fetch` reads, as its manifest
   * lists them (`open`), for tables not asked for before: fetched in the
   * same round, they open the table in one round instead of two. */
  _opening(fetch) {
    const extra = [];
    for (const r of fetch) {
      const t = this._tables.get(r.material);
      if (!t || t.prefetched || !t.open) continue;
      t.prefetched = true;
      // Its capture sub-tables small enough to be read whole, read now:
      // a probe that searches a capture (a don't-care, a reply) needs
      // them in the round after the opening, which this saves.
      for (const sub of this._captureTables(t.material)) {
        if (sub.bytes <= this._wholeBelow && !sub.whole && !sub.prefetched) {
          sub.prefetched = true;
          extra.push({ material: sub.material, file: sub.file, at: 0, len: sub.bytes, speculative: true });
        }
      }
      for (const [at, len] of t.open) {
        const start = Math.floor(at / this._page) * this._page;
        const end = Math.min(Math.ceil((at + len) / this._page) * this._page, t.bytes);
        if (end > start && !(start === r.at && end === r.at + r.len)) {
          extra.push({ material: t.material, file: t.file, at: start, len: end - start });
        }
      }
    }
    return extra;
  }

  /** The tables of this site that a capture from `material` leads into
   * (a piece of either side taken), in their manifest's colour order. */
  _captureTables(material) {
    const [a, b] = material.split("v");
    const found = [];
    for (const [side, other, first] of [[a, b, true], [b, a, false]]) {
      for (let i = 0; i < side.length; i++) {
        const rest = side.slice(0, i) + side.slice(i + 1);
        if (!rest) continue;
        for (const name of first ? [`${rest}v${other}`, `${other}v${rest}`] : [`${other}v${rest}`, `${rest}v${other}`]) {
          const t = this._tables.get(name);
          if (t && !found.includes(t)) found.push(t);
        }
      }
    }
    return found;
  }

  async _load(range, forceWhole = false) {
    const t = this._tables.get(range.material);
    const whole = forceWhole || t.whole || t.plain || t.bytes <= this._wholeBelow;
    const key = whole ? `${t.file}|whole` : `${t.file}|${range.at}`;
    if (!this._pending.has(key)) {
      const job = (async () => {
        let got;
        try {
          got = whole
            ? await this._files.read(t.file, 0, undefined, t.bytes)
            : await this._files.read(t.file, range.at, range.len, t.bytes);
        } catch (e) {
          if (!(e instanceof MissingTableError)) throw e;
          throw new MissingTableError(`this site has no table for ${t.material}: ${e.message}`, e.kind, { cause: e });
        }
        this.stats.requests += 1;
        this.stats.bytes += got.bytes.length;
        if (got.whole) t.whole = true;
        const w = this._wasm;
        this._check(w.ask(w.x.jtb_supply, this._h, t.material, got.whole ? 0 : range.at, got.bytes, got.whole ? 1 : 0));
      })();
      this._pending.set(key, job);
      job.finally(() => this._pending.delete(key)).catch(() => {});
    }
    return this._pending.get(key);
  }

  /** `text` as a Position under the tables' rules. */
  position(text = "start") {
    return Position._parse(this._wasm, this._spec, text);
  }

  /** The text of `position` (a text, or a Position of these tables'
   * rules): a Position of other rules is refused, never answered under
   * the tables' rules. */
  _text(position) {
    // `_` for the space, as in the HTTP API's addresses.
    if (typeof position === "string") return position.replace(/_/g, " ");
    if (position instanceof Position) {
      if (!sameRules(position.rulesetLabel, this.rulesetLabel)) {
        throw new RulesError(
          `the position is under rule set '${position.rulesetLabel}' but the tables are of rule set ` +
            `'${this.rulesetLabel}'`,
          "ruleset_mismatch",
        );
      }
      return position.text;
    }
    throw new OptionsError(
      `a position text or a Position, not ${position === null ? "null" : typeof position}`,
      "options",
    );
  }

  async _run(what, position, square) {
    const text = this._text(position);
    const w = this._wasm;
    let last = "";
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const [status, answer] = what === "map"
        ? w.ask(w.x.jtb_map, this._h, text, String(square))
        : w.ask(w.x.jtb_probe, this._h, what, text);
      if (status === 0) return answer;
      if (status === 2) throw errorOf(answer);
      // The same ranges asked twice in a row: they were handed in and are
      // still missing (pages dropped under a cap too small for one probe).
      const asked = JSON.stringify(answer.fetch);
      if (asked === last) {
        throw new JungleError(`${text}: the same bytes are missing after fetching them (${asked})`, "internal");
      }
      last = asked;
      this.stats.rounds += 1;
      // A range that opening a table reads (the manifest's) may hold one
      // the module asks for: fetched once.
      const opening = this._opening(answer.fetch);
      const covered = (r) => opening.some((o) => !o.speculative && o.material === r.material && o.at <= r.at && o.at + o.len >= r.at + r.len);
      const asks = answer.fetch.filter((r) => !covered(r));
      // A speculative read that fails (a table this site lacks) is not
      // this probe's failure: if the probe needs it, it asks again.
      await Promise.all([...asks, ...opening].map((r) => (r.speculative ? this._load(r).catch(() => {}) : this._load(r))));
    }
    throw new JungleError(`${text}: still fetching after ${MAX_ROUNDS} rounds`, "internal");
  }

  /** The position's value and every move's, as the HTTP API answers
   * `GET /api/{ruleset}?position=`: `{ruleset, position, side_to_move,
   * category, plies, game_over, winner, moves: [{move, category, plies,
   * capture, den}]}`. `position` is a text (read under the tables' rules)
   * or a Position, which must be of the tables' rules (else a RulesError
   * of kind `ruleset_mismatch`); so for every call below.
   *
   * Options: `replies: true` adds to each move the opponent's replies
   * counted by their value for the opponent, `replies: {win, draw, loss}`
   * (all 0 where the move ends the game), as `&replies=true` does: a ply
   * of WDL probes more, fetched in one round. */
  async probe(position, options = {}) {
    checkOptions(options, PROBE_KEYS, "probe");
    if (options.replies !== undefined && typeof options.replies !== "boolean") {
      throw new OptionsError(`probe: replies must be true or false, not ${JSON.stringify(options.replies)}`, "options");
    }
    return this._run(options.replies ? 3 : 0, position);
  }

  /** The WDL value alone: `{ruleset, position, side_to_move, category}`. */
  probeWdl(position) {
    return this._run(1, position);
  }

  /** An optimal line to the end, as `GET /api/{ruleset}/mainline`. */
  mainline(position) {
    return this._run(2, position);
  }

  /** The value of the position with the piece on `square` placed on each
   * square, as `GET /api/{ruleset}/map` answers (a cold map takes a round
   * of fetches per block it reads). */
  map(position, square) {
    return this._run("map", position, square);
  }

  /** What the module keeps of the fetched tables: `{pinned_bytes,
   * cached_bytes, evicted_pages, whole_bytes}` (pages read when tables
   * opened, probe pages under `maxCachedBytes`, pages dropped, tables held
   * whole), and `memory_bytes`, the WebAssembly module's memory (shared by
   * every tablebase of the module: those bytes and the decoded blocks,
   * under `maxDecodedBytes`). */
  usage() {
    const w = this._wasm;
    const u = this._check(w.ask(w.x.jtb_usage, this._h));
    return { ...u, memory_bytes: w.x.memory.buffer.byteLength };
  }

  /** Frees the module's memory for these tables. */
  close() {
    this._wasm.x.jtb_close(this._h);
  }
}
