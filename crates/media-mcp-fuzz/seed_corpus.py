#!/usr/bin/env python3
"""Writes the seed inputs of crates/media-mcp-fuzz/corpus/<target>/ (deterministic; rerun after the catalogue
changes). libFuzzer then grows the corpus from these; the stable replay test runs all of them.

  arguments:   [tool index] + arguments text (valid samples, wrong types, junk)
  projections: [tool index][status/content-type byte] + an Ombi fixture body for that tool
  framing:     hostile stdin bytes after the handshake (garbage, batches, wrong types, ...)
  path_segments: [2 * tool index] + argument name + NUL + value (the value as that argument),
               or [1] + NUL + value (the value as the title an upstream movie detail carries)
  redaction:   [key length][key bytes] + text with the key planted (U+0001 as written, U+0002
               upper-cased, U+0003 split by the next character)

Usage: crates/media-mcp-fuzz/seed_corpus.py  (needs target/release/media-mcp for the tool order)
"""
import hashlib, json, os, random, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus")
rng = random.Random(7)


def put(target, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def tool_order():
    env = {"OMBI_URL": "http://127.0.0.1:9", "OMBI_API_KEY": "seed-key", "PATH": os.environ["PATH"],
           "MEDIA_MCP_CACHE_DIR": os.path.join(ROOT, "target", "tmp", "seed-cache")}
    out = subprocess.run([os.path.join(ROOT, "target/release/media-mcp"), "tools"],
                         capture_output=True, text=True, env=env, check=True).stdout
    return [l.split()[0] for l in out.splitlines()[1:] if l.startswith("  ") and not l.startswith("   ")]


tools = tool_order()
index = json.load(open(os.path.join(ROOT, "tests/fixtures/ombi/index.json")))["fixtures"]

junk_args = [b"", b"{}", b"[]", b"null", b"\"x\"", b"{\"query\":5}", b"{\"query\":\"\"}",
             b"{\"offset\":-1,\"limit\":1000}", b"{\"id\":1e400}", b"{\"a\":" * 40 + b"1" + b"}" * 40,
             "{\"query\":\"\u00e9\u0000\ud7ff\"}".encode("utf-8", "surrogatepass"), b"\xff\xfe{",
             b"{\"query\":\"matrix\",\"query\":\"dup\"}"]
for i, name in enumerate(tools):
    for junk in junk_args:
        put("arguments", bytes([i]) + junk)

for i, name in enumerate(tools):
    bodies = [f for f in index if name in f.get("tools", []) and f.get("body_file")]
    for f in bodies[:4]:
        body = open(os.path.join(ROOT, "tests/fixtures/ombi", f["body_file"]), "rb").read()
        put("projections", bytes([i, 0]) + body)
        cut = body[: max(1, len(body) // 2)]
        put("projections", bytes([i, 1]) + cut)
    for shape, body in [(5, b""), (11, b'{"error":"x"}'), (7, b"[[1],[2]]"), (0, b"null"),
                        (0, b"[{}]"), (0, b"{}"), (0, b"true"), (0, b"\"s\"")]:
        put("projections", bytes([i, shape]) + body)

framing = [b"garbage", b"\x00\x01\x02", b"[]", b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
           b"{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", b"{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}",
           b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":\"x\"}",
           b"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":5}", b"{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\"}",
           b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"notifications/initialized\"}",
           b"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"nope\"}", b"42", b"\"hello\"", b"null",
           b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", b"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}",
           b"{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":5}}",
           b"{\"jsonrpc\":\"2.0\",\"id\":11,\"result\":{}}", b"\r\n\r\n", b"{\"jsonrpc\":\"2.0\"",
           b"{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"initialize\",\"params\":{}}",
           b"{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"tools/list\",\"params\":{\"cursor\":7}}",
           b"{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"ping\"}",
           b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"x\"}}",
           # Keys given twice, ids reused while in flight, cancellation, the value budget, long names.
           b"{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"tools/call\",\"params\":{\"name\":\"a\",\"name\":\"b\"}}",
           b"{\"jsonrpc\":\"2.0\",\"id\":16,\"id\":17,\"method\":\"ping\"}",
           b"{\"jsonrpc\":\"2.0\",\"id\":18,\"method\":\"ping\",\"params\":{\"a\":{\"b\":1,\"b\":2}}}",
           b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\",\"params\":{\"a\":1,\"a\":2}}",
           b"{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"method\":\"tools/list\"}\n{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"method\":\"ping\"}\n"
           b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"r\"}}",
           b"{\"jsonrpc\":\"2.0\",\"id\":19,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":19.0,\"method\":\"ping\"}",
           b"{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"ping\",\"params\":{\"pad\":[" + b"0," * 10000 + b"0]}}",
           b"{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"" + b"m" * 5000 + b"\"}",
           b"{\"jsonrpc\":\"2.0\",\"id\":22,\"method\":\"tools/call\",\"params\":{\"name\":\"" + b"t" * 5000 + b"\"}}"]
for data in framing:
    put("framing", data)

# The disguises: upper case, a zero-width space, U+202E, a line break, a tab, a soft
# hyphen, a BOM, letters that case-fold to ASCII; and a text without the key.
for key, text in [(b"0123456789abcdef", "\u0001"), (b"ombi-key-canary", "x \u0002 y"),
                  (b"abcdefgh", "\u0003\u200b"), (b"abcdefgh", "\u0003\u202e!"),
                  (b"abcdefgh", "[\u0003\n]"), (b"abcdefgh", "\u0003\r\u0003\t"),
                  (b"abcdefghijklmnop", "\u0003\u00ad \u0003\ufeff"),
                  (b"sssskkkk", "\u017f\u017f\u017f\u017f\u212a\u212a\u212a\u212a"),
                  (b"aaaaaaab", "aaaaaaa\u0001aaaaaaaab"), (b"abcdefgh", "caf\u00e9 \u202e nothing here"),
                  (b"abcdefgh", "\u0001\u0001\u0002\u0003\u0001"),
                  # White space splits (the error sanitizer folds line breaks into spaces).
                  (b"0123456789abcdef", "key was \u0003 (bad)"), (b"abcdefgh", "\u0003\u00a0"),
                  (b"abcdefgh", "\u0003\u3000 \u0003\u2003"), (b"abcdefgh", "\u0003\u0085"),
                  (b"abcdefghijkl", "\u0003\r\n"), (b"abcdefgh", "a b c d e f g h")]:
    put("redaction", bytes([len(key) - 8]) + key + text.encode("utf-8"))
# Dot segments as arguments and as an upstream title, in the forms URL parsers resolve.
dots = ["..", ".", "", "%2e%2e", ".%2E", "%2e", "...", "../admin", "a/../b", "\\..", ". .", "..\u200b"]
for tool, field in [("read_users", "user_id"), ("read_search", "query"), ("read_media", "id"),
                    ("read_requests", "query"), ("read_issues", "provider_id"),
                    ("read_request_stats", "user_id"), ("read_library", "id"), ("read_logs", "file_id")]:
    if tool not in tools:
        continue
    for value in dots:
        put("path_segments", bytes([2 * tools.index(tool)]) + field.encode() + b"\0" + value.encode())
for value in dots + ["The Matrix", "AC/DC"]:
    put("path_segments", bytes([1]) + b"\0" + value.encode())
print({t: len(os.listdir(os.path.join(CORPUS, t))) for t in os.listdir(CORPUS)})
