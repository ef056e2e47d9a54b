// The static site's stand-in for `jungletb serve`: the web board (app.js,
// unchanged) asks /api/… as it does of the server, and this script answers
// in the browser. Positions are probed by the jungletb JavaScript package
// (jungletb.js and its WebAssembly module, beside this file) over HTTP
// range requests to the tables of this site; rule sets, terrain and
// material statistics are the JSON files `jungletb site` wrote.
// A classic script, loaded before app.js, so that it is in place before
// the board's first request.
"use strict";
(() => {
  const here = new URL(".", document.currentScript.src);
  const site = new URL("..", here);
  const realFetch = window.fetch.bind(window);
  let pkg = null;
  let rulesets = null;
  const tablebases = new Map();
  const lib = () => (pkg ??= import(new URL("jungletb.js", here).href));
  const json = (body, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const failure = (e) => {
    const status = { notation: 400, impossible_position: 400, game_over: 400, square: 400, no_piece: 400,
      ruleset_mismatch: 400, rules: 400, options: 400, illegal_move: 400, missing_table: 404, no_tables: 404,
      unknown_ruleset: 404 }[e.kind] ?? 500;
    return json({ error: e.message, kind: e.kind ?? "internal" }, status);
  };
  async function list() {
    rulesets ??= realFetch(new URL("rulesets.json", site)).then((r) => r.json());
    return rulesets;
  }
  function tablebase(label) {
    if (!tablebases.has(label)) {
      tablebases.set(label, (async () => {
        const entry = (await list()).rulesets.find((r) => r.label === label);
        if (!entry) throw Object.assign(new Error(await noRuleset(label)), { kind: "unknown_ruleset" });
        const { Tablebase } = await lib();
        // The site's root: the package looks for `<label>/manifest.json`
        // there first (given `<label>/`, it asked `<label>/<label>/` first,
        // a 404 on every open).
        return Tablebase.open(site.href, { ruleset: entry.base, rules: entry.options });
      })().catch((e) => { tablebases.delete(label); throw e; }));
    }
    return tablebases.get(label);
  }
  // A rule set the site lacks: the message names those it has.
  async function noRuleset(label) {
    const labels = (await list()).rulesets.map((r) => r.label);
    return `this site has no rule set '${label}'; it has: ${labels.join(", ")}`;
  }
  async function file(path, missing) {
    const r = await realFetch(new URL(path, site));
    if (r.status === 404) return json({ error: missing, kind: "missing_table" }, 404);
    return r;
  }
  async function answer(url) {
    const parts = url.pathname.replace(/^.*?\/api\//, "").split("/");
    const position = (url.searchParams.get("position") ?? "").replace(/_/g, " ");
    const [label, route, arg] = parts;
    if (label === "rulesets") return json(await list());
    if (route === "board") {
      if (!(await list()).rulesets.some((r) => r.label === label)) {
        return json({ error: await noRuleset(label), kind: "unknown_ruleset" }, 404);
      }
      return file(`${label}/board.json`, `this site has no board for rule set '${label}'`);
    }
    if (route === "stats") {
      const r = await file(`${label}/materials/${arg}.json`, `this site has no table for ${arg}`);
      if (r.status !== 404) return r;
      const swapped = arg.split("v").reverse().join("v");
      return file(`${label}/materials/${swapped}.json`, `this site has no table for ${arg}`);
    }
    // As the server: a parameter the route does not read is refused, not
    // ignored (the rule set is the path's alone here: `ruleset` and
    // `rule` are not read either), and none may be given twice.
    const known = route === "map" ? ["position", "square"] : route === undefined ? ["position", "replies"] : ["position"];
    const keys = [...url.searchParams.keys()];
    const odd = keys.find((k, i) => !known.includes(k) || keys.indexOf(k) !== i);
    if (odd !== undefined) {
      return json({ error: `query parameter '${odd}' unknown or repeated (this route reads: ${known.join(", ")})`, kind: "parameter" }, 400);
    }
    const tb = await tablebase(label);
    if (route === "map") {
      const square = url.searchParams.get("square");
      if (!square) return json({ error: "missing &square=… (e.g. &square=a1)", kind: "missing_square" }, 400);
      return json(await tb.map(position, square));
    }
    if (route === "mainline") return json(await tb.mainline(position));
    if (route === undefined) {
      const replies = url.searchParams.get("replies");
      if (replies !== null && replies !== "true" && replies !== "false") {
        return json({ error: `replies=${replies}: expected true or false`, kind: "parameter" }, 400);
      }
      return json(await tb.probe(position, { replies: replies === "true" }));
    }
    return json({ error: "no such route", kind: "no_route" }, 404);
  }
  // Opened from disk (file://), a browser fetches nothing: say how to
  // serve the folder instead of "Failed to fetch".
  const fromDisk = location.protocol === "file:";
  const FROM_DISK =
    "this page was opened from disk, where a browser fetches nothing: serve the site's folder " +
    "and open it over HTTP, for example `python3 -m http.server` in that folder, then " +
    "http://localhost:8000/board.html (that server ignores Range: tables up to 16 MiB are then " +
    "read whole and larger ones refused; nginx, Apache or any static host that answers ranges " +
    "reads a few blocks of each)";
  window.fetch = async (input, init) => {
    if (fromDisk) return json({ error: FROM_DISK, kind: "host" }, 500);
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    if (url.origin !== location.origin || !url.pathname.includes("/api/")) return realFetch(input, init);
    try {
      return await answer(url);
    } catch (e) {
      return failure(e);
    }
  };
})();
