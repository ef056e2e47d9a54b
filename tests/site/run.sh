#!/usr/bin/env bash
# The tables in the browser and in JavaScript, as visitors and programmers
# meet them: `jungletb site` served by nginx (Debian's package, range
# requests on, no server code of ours), the JavaScript package in Node
# (local files, memory, HTTP) and the site in headless Chromium, every
# answer compared with the CLI's.
#
#   tests/site/run.sh [path/to/jungletb]
#
# Installs nginx (and, through tests/browser, chromium and playwright-core)
# if missing; builds the WebAssembly module (js/build.sh); generates the
# standard tables up to 3 pieces and ELvTR (6.5 million slots, so that
# some table is read by ranges), compresses them, writes the site.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=$(readlink -f "${1:-$repo/target/release/jungletb}")
say() { echo "site test: $*"; }
fail() { echo "site test: FAILED: $*" >&2; exit 1; }
[ -x "$bin" ] || fail "no jungletb binary at $bin"

if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  say "installing nginx"
  [ "$(id -u)" = 0 ] || fail "nginx missing and not root to install it"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q nginx-light >/dev/null 2>&1 || apt-get install -y -q nginx >/dev/null \
    || { apt-get update -q >/dev/null && apt-get install -y -q nginx >/dev/null; }
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -d "$repo/tests/browser/node_modules/playwright-core" ]; then
  (cd "$repo/tests/browser" && npm ci --no-audit --no-fund --silent)
fi
"$repo/js/build.sh" | sed 's/^/site test: /'

work=$(mktemp -d)
# nginx workers run as an unprivileged user: let them read the site.
chmod 755 "$work"
cleanup() {
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

say "generating the standard tables up to 3 pieces and ELvTR"
"$bin" generate --out "$work/tables" --max-pieces 3 -q
"$bin" generate --out "$work/tables" --material ELvTR -q
"$bin" compress --tables "$work/tables" --out "$work/ctables" -q
"$bin" site --tables "$work/ctables" --out "$work/site" --js "$repo/js" -q | sed 's/^/site test: /'

# The cross-rule fixtures (rules.test.mjs): the 2-piece tables of three
# rule sets, as files and as one site of the three (built by one `site`
# over the tables root); and the popular + wolf_outranks_dog tables under
# standard's name, as files and as a site whose manifest was edited to
# say standard.
say "generating the 2-piece tables of standard, leiden and popular + wolf_outranks_dog"
wolf="--ruleset popular --rule wolf_outranks_dog=true"
wolf_label=popular-custom-96041d7177d2e47e
mkdir -p "$work/site/swapped/standard" "$work/swapped/standard"
for r in "--ruleset standard" "--ruleset leiden" "$wolf"; do
  # shellcheck disable=SC2086 # the rule-set arguments split on purpose
  "$bin" generate --out "$work/rules" $r --max-pieces 2 -q
done
"$bin" site --tables "$work/rules" --out "$work/site/rules" --js "$repo/js" -q | sed 's/^/site test: /'
cp "$work/rules/$wolf_label"/*.jtb "$work/swapped/standard/"
cp -r "$work/site/rules/$wolf_label/." "$work/site/swapped/standard/"
python3 - "$work/site/swapped/standard/manifest.json" <<'PY'
import json, sys
p = sys.argv[1]
m = json.load(open(p))
m["ruleset"] = "standard"
json.dump(m, open(p, "w"))
PY
WD="7/7/7/7/7/7/7/d6/W6 w"; SW="w6/D6/7/7/7/7/7/7/7 b"
for r in "--ruleset standard" "--ruleset leiden" "$wolf"; do
  # shellcheck disable=SC2086
  printf '%s\n%s\n' "$WD" "$SW" | "$bin" probe --tables "$work/rules" $r --json --batch
done > "$work/rules-cases.jsonl"

# The faults: a copy missing the tables its manifest lists, and a copy whose
# large table has a byte flipped in every KiB past its first 64 KiB.
cp -r "$work/site" "$work/broken"
rm "$work/broken/standard/"*.jtbz
cp -r "$work/site" "$work/damaged"
python3 - "$work/damaged/standard/ELvTR.jtbz" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for at in range(1 << 16, len(b), 1024):
    b[at] ^= 0x04
open(p + ".tmp", "wb").write(b)
PY
mv "$work/damaged/standard/ELvTR.jtbz.tmp" "$work/damaged/standard/ELvTR.jtbz"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/nginx-tmp"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 256; }
http {
  access_log $work/nginx-access.log;
  client_body_temp_path $work/nginx-tmp;
  proxy_temp_path $work/nginx-tmp;
  fastcgi_temp_path $work/nginx-tmp;
  uwsgi_temp_path $work/nginx-tmp;
  scgi_temp_path $work/nginx-tmp;
  types {
    text/html html; text/css css; text/javascript js mjs; application/json json;
    image/svg+xml svg; application/wasm wasm; text/plain SHA256SUMS;
  }
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:$port;
    root $work/site;
    location /rangeless/ { alias $work/site/; max_ranges 0; }
    location /damaged/ { alias $work/damaged/; }
    location /broken/ { alias $work/broken/; }
    # docs/web.md's CORS lines, as written there, for a page on another
    # origin (the browser test loads the board from 127.0.0.1 and reads
    # tables from localhost).
    location /cors/ {
      alias $work/site/;
      add_header Access-Control-Allow-Origin "*" always;
      add_header Access-Control-Allow-Headers "Range" always;
      add_header Access-Control-Expose-Headers "Content-Range, Content-Length" always;
      if (\$request_method = OPTIONS) { return 204; }
    }
  }
}
CONF
"$nginx" -c "$work/nginx.conf" -p "$work" || fail "nginx did not start"
url="http://127.0.0.1:$port"
# Python's urllib rather than curl, which a bare machine may lack.
code=$(python3 - "$url" <<'PY'
import sys, time, urllib.request
url = sys.argv[1]
for _ in range(50):
    try:
        urllib.request.urlopen(url + "/site.json").read()
        break
    except OSError:
        time.sleep(0.1)
req = urllib.request.Request(url + "/standard/ELvTR.jtbz", headers={"Range": "bytes=0-99"})
print(urllib.request.urlopen(req).status)
PY
)
[ "$code" = 206 ] || fail "nginx answered a range request with $code"
say "nginx at $url (range requests: 206)"

# The positions: every material's longest win and loss for each side to
# move (from the site's standard/stats.json), answered by the CLI.
python3 - "$work/site/standard/stats.json" > "$work/positions.txt" <<'PY'
import json, sys
seen = []
for s in json.load(open(sys.argv[1])):
    for side in ("white_to_move", "black_to_move"):
        for k in ("longest_win_example", "longest_loss_example"):
            e = s[side].get(k)
            if e and e["position"] not in seen:
                seen.append(e["position"])
# ELvTR's (the table read by ranges) first, then spread over the
# materials, 240 in all.
big = [p for p in seen if sorted(c for c in p.split()[0] if c.isalpha()) in (list("ELrt"), list("RTel"))]
rest = [p for p in seen if p not in big]
print("\n".join((big + rest[::max(1, len(rest) // 240)])[:240]))
PY
"$bin" probe --tables "$work/ctables" --json --batch < "$work/positions.txt" > "$work/cases.jsonl"
say "$(wc -l < "$work/cases.jsonl") positions answered by the CLI"
# Replies by value (probe --json --replies) of the first 40, ELvTR's first.
head -n 40 "$work/positions.txt" \
  | "$bin" probe --tables "$work/ctables" --json --replies --batch > "$work/replies.jsonl"

export SITE="$url/" TABLES="$work/ctables" CASES="$work/cases.jsonl" REPLIES="$work/replies.jsonl"
export RANGELESS="$url/rangeless/" DAMAGED="$url/damaged/" BROKEN="$url/broken/"
node --test "$here/node.test.mjs" || fail "node.test.mjs"
RULES_TABLES="$work/rules" RULES_SITE="$url/rules/" RULES_CASES="$work/rules-cases.jsonl" \
  SWAPPED_TABLES="$work/swapped" SWAPPED_SITE="$url/swapped/" \
  node --test "$here/rules.test.mjs" || fail "rules.test.mjs"
node "$here/browser.test.mjs" "$url" "$work/cases.jsonl" "$work/site" || fail "browser.test.mjs"
# The board opens each rule set's tables from the site's root: never a
# 404 for a manifest under a doubled label (standard/standard/…).
if grep -E '/([^/ ]+)/\1/manifest\.json' "$work/nginx-access.log"; then
  fail "a manifest asked under a doubled label"
fi
say "passed ($(grep -c '' "$work/nginx-access.log") requests served by nginx)"
