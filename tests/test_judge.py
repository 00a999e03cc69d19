"""The LLM judge against a real HTTP server on 127.0.0.1 started by each test: request
shape, reply parsing, the on-disk cache, retries (500, 429 + Retry-After, timeouts,
refused connections), no retry on other 4xx, the concurrency limit, judge_many, env
fallbacks and save_responses."""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from _local_server import LocalServer

import gaia_fast.judge as judge_mod
from gaia_fast.judge import Judge, JudgeError, JudgeReply, OpenAIJudge, judge_many, save_responses

ENV_VARS = ("GAIA_FAST_JUDGE_MODEL", "OPENAI_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY")


@dataclass
class Canned:
    """What the server answers to one request."""

    reply: str | None = None  # chat-completion content; None → ``raw`` or an echo
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None  # a body sent as is
    delay: float = 0.0  # seconds to sleep before answering


def echo(request: dict) -> Canned:
    return Canned(reply="echo:" + request["body"]["messages"][-1]["content"])


class FakeLLM(LocalServer):
    """A chat-completions server on 127.0.0.1 (port 0) serving ``behaviour(request)``;
    records every request and the largest number of requests in flight."""

    def __init__(self, behaviour: Callable[[dict], Canned] = echo, lifetime: float = 30.0):
        self.behaviour = behaviour
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(length)
                request = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": json.loads(raw)}
                with outer.lock:
                    outer.requests.append(request)
                    outer.in_flight += 1
                    outer.max_in_flight = max(outer.max_in_flight, outer.in_flight)
                try:
                    canned = outer.behaviour(request)
                    if canned.delay:
                        time.sleep(canned.delay)
                finally:
                    # Before answering: the client frees its slot only after the answer.
                    with outer.lock:
                        outer.in_flight -= 1
                try:
                    if canned.raw is not None:
                        payload = canned.raw
                    elif canned.reply is not None:
                        payload = json.dumps(
                            {
                                "id": "chatcmpl-test",
                                "object": "chat.completion",
                                "model": request["body"].get("model"),
                                "choices": [{"index": 0, "message": {"role": "assistant", "content": canned.reply}, "finish_reason": "stop"}],
                            }
                        ).encode()
                    else:
                        payload = b'{"error": {"message": "canned error"}}'
                    self.send_response(canned.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for k, v in canned.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

        super().__init__(Handler, lifetime)
        self.base_url = self.url + "/v1"

    @property
    def count(self) -> int:
        with self.lock:
            return len(self.requests)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.fixture
def llm(clean_env) -> Iterator[Callable[..., FakeLLM]]:
    servers: list[FakeLLM] = []

    def start(behaviour: Callable[[dict], Canned] = echo) -> FakeLLM:
        server = FakeLLM(behaviour).start()
        servers.append(server)
        return server

    yield start
    for s in servers:
        s.stop()


def make_judge(server: FakeLLM, tmp_path: Path | None = None, **kw) -> OpenAIJudge:
    kw.setdefault("model", "judge-model")
    kw.setdefault("api_key", "sk-test")
    kw.setdefault("backoff", 0.0)
    kw.setdefault("timeout", 5.0)
    kw.setdefault("cache_dir", tmp_path / "cache" if tmp_path is not None else False)
    return OpenAIJudge(base_url=server.base_url, **kw)


def sequence(*items: Canned) -> Callable[[dict], Canned]:
    """Answer with ``items`` in order, then repeat the last one."""
    lock = threading.Lock()
    state = {"i": 0}

    def behaviour(request: dict) -> Canned:
        with lock:
            i = min(state["i"], len(items) - 1)
            state["i"] += 1
        canned = items[i]
        if canned.status == 200 and canned.reply is None and canned.raw is None:
            return echo(request)
        return canned

    return behaviour


# -- request shape and parsing --------------------------------------------------------


def test_request_body_and_headers(llm, tmp_path):
    server = llm()
    judge = make_judge(server, model="gpt-4o-mini", api_key="sk-secret", system="You are a grader.", max_tokens=4096, extra_body={"seed": 7})
    assert judge("Is 1/2 = 0.5?") == "echo:Is 1/2 = 0.5?"
    (req,) = server.requests
    assert req["path"] == "/v1/chat/completions"
    assert req["headers"]["authorization"] == "Bearer sk-secret"
    assert req["headers"]["content-type"] == "application/json"
    assert req["body"] == {
        "model": "gpt-4o-mini",
        "messages": [{"role": "system", "content": "You are a grader."}, {"role": "user", "content": "Is 1/2 = 0.5?"}],
        "temperature": 0.0,
        "max_tokens": 4096,
        "seed": 7,
    }
    assert "sk-secret" not in repr(judge)


def test_minimal_body_and_unicode(llm):
    server = llm()
    judge = make_judge(server, temperature=0.3)
    prompt = "équivalent ? \\frac{1}{2} ≟ ½ \ud800"  # a lone surrogate must not break the request
    assert judge(prompt) == "echo:" + prompt
    body = server.requests[0]["body"]
    assert body == {"model": "judge-model", "messages": [{"role": "user", "content": prompt}], "temperature": 0.3}


def test_base_url_with_endpoint_and_trailing_slash(llm):
    server = llm()
    for base in (server.base_url + "/", server.base_url + "/chat/completions"):
        judge = OpenAIJudge("m", base, "k", cache_dir=False)
        assert judge("x") == "echo:x"
    assert [r["path"] for r in server.requests] == ["/v1/chat/completions"] * 2


def test_reply_parsing_variants(llm):
    parts = json.dumps({"choices": [{"message": {"role": "assistant", "content": [{"type": "text", "text": "Tr"}, {"type": "text", "text": "ue"}]}}]})
    server = llm(sequence(Canned(raw=parts.encode())))
    judge = make_judge(server)
    assert judge("q") == "True"

    for raw, fragment in [
        (b'{"object": "list", "data": []}', "not a chat completion"),
        (b'{"choices": [{"message": {"role": "assistant", "content": null, "refusal": "no"}}]}', "refusal: no"),
    ]:
        server = llm(sequence(Canned(raw=raw)))
        judge = make_judge(server, retries=3)
        with pytest.raises(JudgeError, match=fragment) as info:
            judge("q")
        assert info.value.status == 200
        assert server.count == 1  # a well-formed but wrong reply is not retried


def test_body_not_json_is_retried(llm):
    server = llm(sequence(Canned(raw=b"<html>bad gateway</html>"), Canned()))
    judge = make_judge(server, retries=2)
    assert judge("q") == "echo:q"
    assert server.count == 2


# -- cache ------------------------------------------------------------------------------


def test_cache_hit_makes_no_request(llm, tmp_path):
    server = llm()
    judge = make_judge(server, tmp_path)
    first = judge.ask("Is 2 = 2.0?")
    assert (first.reply, first.cached, first.model, first.error) == ("echo:Is 2 = 2.0?", False, "judge-model", None)
    assert server.count == 1
    second = judge.ask("Is 2 = 2.0?")
    assert (second.reply, second.cached) == ("echo:Is 2 = 2.0?", True)
    assert judge("Is 2 = 2.0?") == "echo:Is 2 = 2.0?"
    assert server.count == 1
    # A new instance (a re-run) reads the same cache; the base URL and key are not in the key.
    other = OpenAIJudge("judge-model", "http://127.0.0.1:9/v1", "other-key", cache_dir=tmp_path / "cache")
    assert other.ask("Is 2 = 2.0?").cached
    assert server.count == 1
    assert judge.stats == {"requests": 1, "cache_hits": 2, "retries": 0, "failures": 0, "failed_fast": 0}

    files = list((tmp_path / "cache").rglob("*.json"))
    assert len(files) == 1
    entry = json.loads(files[0].read_text(encoding="utf-8"))
    assert entry["model"] == "judge-model" and entry["prompt"] == "Is 2 = 2.0?" and entry["reply"] == "echo:Is 2 = 2.0?"
    assert entry["created"]
    assert files[0].name == judge.cache_key("Is 2 = 2.0?") + ".json"
    assert not [p for p in (tmp_path / "cache").rglob("*") if p.name.endswith(".tmp")]


def test_cache_key_covers_model_system_and_params(llm, tmp_path):
    server = llm()
    base = make_judge(server, tmp_path)
    base("p")
    for kw in ({"model": "other-model"}, {"system": "sys"}, {"temperature": 0.5}, {"max_tokens": 10}, {"extra_body": {"seed": 1}}):
        judge = make_judge(server, tmp_path, **kw)
        assert not judge.ask("p").cached, kw
    assert server.count == 6
    assert make_judge(server, tmp_path, max_tokens=10).ask("p").cached
    assert server.count == 6


def test_cache_disabled_and_corrupt_entry(llm, tmp_path):
    server = llm()
    off = make_judge(server, cache_dir=False)
    off("p")
    off("p")
    assert server.count == 2 and off.cache_dir is None

    judge = make_judge(server, tmp_path)
    judge("p")
    path = next((tmp_path / "cache").rglob("*.json"))
    path.write_text("{not json", encoding="utf-8")
    reply = judge.ask("p")  # an unreadable entry is ignored and rewritten
    assert not reply.cached and server.count == 4
    assert json.loads(path.read_text(encoding="utf-8"))["reply"] == "echo:p"


def test_errors_are_not_cached(llm, tmp_path):
    server = llm(sequence(Canned(status=400), Canned()))
    judge = make_judge(server, tmp_path)
    with pytest.raises(JudgeError):
        judge("p")
    assert judge.ask("p") == JudgeReply("p", "echo:p", "judge-model", False, None)


def test_default_cache_dir(clean_env, tmp_path):
    clean_env.setenv("XDG_CACHE_HOME", str(tmp_path))
    judge = OpenAIJudge("m", api_key="k")
    assert judge.cache_dir == tmp_path / "gaia-fast" / "judge"
    clean_env.delenv("XDG_CACHE_HOME")
    clean_env.setenv("HOME", str(tmp_path / "home"))
    assert OpenAIJudge("m", api_key="k").cache_dir == tmp_path / "home" / ".cache" / "gaia-fast" / "judge"


# -- retries ----------------------------------------------------------------------------


def test_retry_on_500_then_success(llm):
    server = llm(sequence(Canned(status=500), Canned(status=502), Canned()))
    judge = make_judge(server, retries=5)
    assert judge("q") == "echo:q"
    assert server.count == 3
    assert judge.stats["retries"] == 2


def test_retry_on_429_honours_retry_after(llm, monkeypatch):
    waits: list[float] = []
    monkeypatch.setattr(judge_mod, "_sleep", lambda breaker, seconds: waits.append(seconds))
    server = llm(sequence(Canned(status=429, headers={"Retry-After": "0"}), Canned(status=429, headers={"Retry-After": "0.05"}), Canned()))
    judge = make_judge(server, retries=5, backoff=10.0)  # Retry-After wins over the (large) backoff
    assert judge("q") == "echo:q"
    assert server.count == 3
    assert waits == [0.05]  # Retry-After: 0 → no wait at all


def test_exponential_backoff_with_jitter(llm, monkeypatch):
    waits: list[float] = []
    monkeypatch.setattr(judge_mod, "_sleep", lambda breaker, seconds: waits.append(seconds))
    server = llm(sequence(Canned(status=503)))
    judge = make_judge(server, retries=3, backoff=0.01)
    with pytest.raises(JudgeError) as info:
        judge("q")
    assert server.count == 4
    assert info.value.status == 503 and info.value.attempts == 4
    assert "after 4 attempt(s)" in str(info.value)
    assert len(waits) == 3
    for n, w in enumerate(waits):
        assert 0.5 * 0.01 * 2**n <= w <= 1.5 * 0.01 * 2**n


def test_no_retry_on_400(llm):
    server = llm(sequence(Canned(status=400, raw=b'{"error": {"message": "bad model name"}}')))
    judge = make_judge(server, retries=5)
    with pytest.raises(JudgeError) as info:
        judge("q")
    assert server.count == 1
    assert info.value.status == 400
    assert "400" in str(info.value) and "bad model name" in str(info.value)
    assert info.value.body and "bad model name" in info.value.body


@pytest.mark.parametrize("status", [401, 403, 404, 422])
def test_no_retry_on_other_4xx(llm, status):
    server = llm(sequence(Canned(status=status)))
    with pytest.raises(JudgeError) as info:
        make_judge(server, retries=3)("q")
    assert info.value.status == status and server.count == 1


def test_timeout_retried_then_error(llm):
    server = llm(sequence(Canned(reply="late", delay=0.6)))
    judge = make_judge(server, timeout=0.2, retries=1)
    start = time.monotonic()
    with pytest.raises(JudgeError, match="timed out") as info:
        judge("q")
    assert time.monotonic() - start < 2.0
    assert server.count == 2  # one retry
    assert info.value.status is None and info.value.attempts == 2


def test_timeout_then_success(llm):
    server = llm(sequence(Canned(reply="late", delay=0.6), Canned(reply="on time")))
    assert make_judge(server, timeout=0.2, retries=2)("q") == "on time"
    assert server.count == 2


def test_connection_refused_is_retried(clean_env):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    judge = OpenAIJudge("m", f"http://127.0.0.1:{port}/v1", "k", retries=2, backoff=0.0, cache_dir=False, timeout=2.0)
    with pytest.raises(JudgeError, match="connection error") as info:
        judge("q")
    assert info.value.attempts == 3
    assert judge.stats == {"requests": 3, "cache_hits": 0, "retries": 2, "failures": 1, "failed_fast": 0}


# -- concurrency and batches ------------------------------------------------------------


def test_concurrency_limit_respected(llm):
    server = llm(lambda req: Canned(reply=req["body"]["messages"][-1]["content"].upper(), delay=0.1))
    judge = make_judge(server, concurrency=2)
    prompts = [f"p{i}" for i in range(8)]
    replies = judge_many(judge, prompts, concurrency=8)  # more workers than the judge allows
    assert [r.reply for r in replies] == [p.upper() for p in prompts]
    assert server.count == 8
    assert server.max_in_flight == 2


def test_concurrency_limit_shared_across_threads(llm):
    server = llm(lambda req: Canned(reply="ok", delay=0.1))
    judge = make_judge(server, concurrency=3)
    threads = [threading.Thread(target=judge, args=(f"p{i}",)) for i in range(9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert server.count == 9 and server.max_in_flight == 3


def test_judge_many_parallel_by_default(llm):
    server = llm(lambda req: Canned(reply="ok", delay=0.1))
    judge = make_judge(server, concurrency=4)
    judge_many(judge, [str(i) for i in range(8)])  # the judge's own concurrency
    assert server.max_in_flight == 4


def test_judge_many_order_duplicates_and_cache(llm, tmp_path):
    # Later prompts answer sooner, so completion order differs from input order.
    def behaviour(req: dict) -> Canned:
        i = int(req["body"]["messages"][-1]["content"][1:])
        return Canned(reply=f"r{i}", delay=0.02 * (10 - i))

    server = llm(behaviour)
    judge = make_judge(server, tmp_path, concurrency=8)
    prompts = ["p3", "p1", "p9", "p1", "p0", "p5", "p9"]
    replies = judge_many(judge, prompts)
    assert [r.prompt for r in replies] == prompts
    assert [r.reply for r in replies] == ["r3", "r1", "r9", "r1", "r0", "r5", "r9"]
    assert server.count == 5  # identical prompts are asked once
    again = judge_many(judge, prompts)
    assert [r.reply for r in again] == [r.reply for r in replies]
    assert all(r.cached for r in again) and server.count == 5


def test_judge_many_plain_callable_and_errors():
    calls: list[str] = []
    lock = threading.Lock()

    def judge(prompt: str) -> str:
        with lock:
            calls.append(prompt)
        if prompt == "boom":
            raise RuntimeError("judge down")
        if prompt == "int":
            return 1  # type: ignore[return-value]
        return prompt[::-1]

    assert isinstance(judge, Judge)
    replies = judge_many(judge, ["abc", "boom", "xy", "int"], concurrency=3)
    assert [r.reply for r in replies] == ["cba", "", "yx", ""]
    assert [r.ok for r in replies] == [True, False, True, False]
    assert replies[1].error == "RuntimeError: judge down"
    assert "not str" in replies[3].error
    assert all(r.model is None and not r.cached for r in replies)
    assert sorted(calls) == ["abc", "boom", "int", "xy"]
    assert judge_many(judge, []) == []
    assert judge_many(str.upper, ["a", "b"], concurrency=1) == [JudgeReply("a", "A"), JudgeReply("b", "B")]
    with pytest.raises(TypeError):
        judge_many(judge, ["a", None])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        judge_many(judge, ["a"], concurrency=0)


def test_judge_many_records_http_failures(llm):
    def behaviour(req: dict) -> Canned:
        p = req["body"]["messages"][-1]["content"]
        return Canned(status=400) if p == "bad" else echo(req)

    server = llm(behaviour)
    replies = judge_many(make_judge(server), ["good", "bad", "fine"])
    assert [r.reply for r in replies] == ["echo:good", "", "echo:fine"]
    assert replies[1].error.startswith("JudgeError:") and "HTTP 400" in replies[1].error
    assert replies[0].model == "judge-model"


# -- options and environment ------------------------------------------------------------


def test_env_fallbacks(llm):
    server = llm()
    llm_env = pytest.MonkeyPatch()
    try:
        llm_env.setenv("OPENAI_MODEL", "env-openai-model")
        llm_env.setenv("OPENAI_BASE_URL", server.base_url)
        llm_env.setenv("OPENAI_API_KEY", "sk-env")
        judge = OpenAIJudge(cache_dir=False)
        assert (judge.model, judge.base_url) == ("env-openai-model", server.base_url)
        llm_env.setenv("GAIA_FAST_JUDGE_MODEL", "env-gaia-model")  # wins over OPENAI_MODEL
        judge = OpenAIJudge(cache_dir=False)
        assert judge("hi") == "echo:hi"
        req = server.requests[-1]
        assert req["body"]["model"] == "env-gaia-model"
        assert req["headers"]["authorization"] == "Bearer sk-env"
        # Options win over the environment.
        judge = OpenAIJudge("opt-model", server.base_url, "sk-opt", cache_dir=False)
        judge("hi")
        assert server.requests[-1]["body"]["model"] == "opt-model"
        assert server.requests[-1]["headers"]["authorization"] == "Bearer sk-opt"
    finally:
        llm_env.undo()


def test_default_base_url(clean_env):
    judge = OpenAIJudge("m", api_key="k", cache_dir=False)
    assert judge.url == "https://api.openai.com/v1/chat/completions"


def test_missing_model_or_key(clean_env):
    with pytest.raises(ValueError, match=r"model=.*GAIA_FAST_JUDGE_MODEL.*OPENAI_MODEL"):
        OpenAIJudge(api_key="k")
    with pytest.raises(ValueError, match=r"api_key=.*OPENAI_API_KEY"):
        OpenAIJudge("m")
    clean_env.setenv("OPENAI_API_KEY", "")
    with pytest.raises(ValueError, match="OPENAI_API_KEY"):
        OpenAIJudge("m")
    for kw in ({"retries": -1}, {"concurrency": 0}, {"timeout": 0}):
        with pytest.raises(ValueError):
            OpenAIJudge("m", api_key="k", **kw)


def test_retry_after_parsing():
    assert judge_mod._retry_after(None) is None
    assert judge_mod._retry_after("0") == 0.0
    assert judge_mod._retry_after(" 2.5 ") == 2.5
    assert judge_mod._retry_after("-3") == 0.0
    assert judge_mod._retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # in the past
    assert judge_mod._retry_after("soon") is None


# -- saving -----------------------------------------------------------------------------


def test_save_responses(tmp_path):
    replies = [
        JudgeReply("Is ½ = 0.5?", "True", "gpt-4o-mini", cached=True),
        JudgeReply("q2", "", "gpt-4o-mini", error="JudgeError: HTTP 400"),
        JudgeReply("bad \ud800", "x", None),
    ]
    out = save_responses(replies, tmp_path / "results" / "judge.jsonl")
    assert out == tmp_path / "results" / "judge.jsonl"
    text = out.read_text(encoding="utf-8")
    assert "½" in text  # non-ASCII stays readable
    rows = [json.loads(line) for line in text.splitlines()]
    assert rows[0] == {"prompt": "Is ½ = 0.5?", "reply": "True", "model": "gpt-4o-mini", "cached": True, "error": None}
    assert rows[1]["error"] == "JudgeError: HTTP 400" and rows[1]["reply"] == ""
    assert rows[2]["prompt"] == "bad \ud800"
    assert [p.name for p in out.parent.iterdir()] == ["judge.jsonl"]  # no temp file left
    save_responses([], out)
    assert out.read_text(encoding="utf-8") == ""
    with pytest.raises(TypeError):
        save_responses([{"prompt": "x"}], out)  # type: ignore[list-item]


# -- fault bounds: circuit breaker, max_wait, events -----------------------------------


def test_empty_choices_is_an_error_not_retried(llm):
    server = llm(sequence(Canned(raw=b'{"choices": []}')))
    judge = make_judge(server, retries=3)
    with pytest.raises(JudgeError, match="not a chat completion"):
        judge("q")
    assert server.count == 1


def test_connection_reset_is_retried(clean_env):
    """A server that accepts and closes the connection without answering."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    sock.settimeout(0.2)
    stop = threading.Event()
    accepted = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                continue
            accepted.append(1)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # RST on close
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        judge = OpenAIJudge("m", f"http://127.0.0.1:{sock.getsockname()[1]}/v1", "k", retries=2, backoff=0.0, cache_dir=False, timeout=2.0)
        with pytest.raises(JudgeError, match="connection error") as info:
            judge("q")
        assert info.value.attempts == 3 and len(accepted) == 3
    finally:
        stop.set()
        thread.join(5)
        sock.close()


def test_breaker_opens_and_the_rest_fail_at_once(llm, tmp_path):
    server = llm(sequence(Canned(status=500)))
    events: list[judge_mod.JudgeEvent] = []
    lock = threading.Lock()

    def on_event(e: judge_mod.JudgeEvent) -> None:
        with lock:
            events.append(e)

    # a large backoff: without the breaker this takes minutes
    judge = make_judge(server, tmp_path, retries=5, backoff=5.0, concurrency=8, on_event=on_event)
    prompts = [f"p{i}" for i in range(40)]
    start = time.monotonic()
    replies = judge_many(judge, prompts)
    elapsed = time.monotonic() - start
    assert elapsed < 5, elapsed  # sleeping threads are woken when the breaker opens
    assert all(r.error for r in replies) and not any(r.cached for r in replies)
    assert server.count <= 5 + 8  # the threshold, plus requests already in flight
    fast = [r for r in replies if "circuit breaker open" in r.error]
    assert len(fast) >= 40 - 8
    assert "HTTP 500" in fast[0].error  # names the last failure
    stats = judge.stats
    assert stats["failures"] == 40 and stats["failed_fast"] >= 32 and stats["requests"] == server.count
    kinds = [e.kind for e in events]
    assert kinds.count("request") == 40 and kinds.count("failure") == 40 and kinds.count("breaker_open") == 1
    assert not list((tmp_path / "cache").rglob("*.json"))  # failures are never cached


def test_breaker_half_open_probe_and_success_closes(llm):
    state = {"fail": True}
    server = llm(lambda req: Canned(status=503) if state["fail"] else echo(req))
    events: list[str] = []
    judge = make_judge(server, retries=0, breaker_threshold=3, breaker_cooldown=0.3, on_event=lambda e: events.append(e.kind))
    for i in range(3):
        with pytest.raises(JudgeError, match="HTTP 503"):
            judge(f"q{i}")
    assert judge.breaker is not None and judge.breaker.is_open
    with pytest.raises(JudgeError, match="circuit breaker open"):
        judge("q3")
    assert server.count == 3
    # after the cool-down one probe goes through; it fails: open again at once
    time.sleep(0.35)
    with pytest.raises(JudgeError, match="HTTP 503"):
        judge("q4")
    with pytest.raises(JudgeError, match="circuit breaker open"):
        judge("q5")
    assert server.count == 4
    state["fail"] = False
    time.sleep(0.35)
    assert judge("q6") == "echo:q6"  # the probe succeeds: closed
    assert not judge.breaker.is_open
    assert [judge(f"r{i}") for i in range(3)] == ["echo:r0", "echo:r1", "echo:r2"]
    assert events.count("breaker_open") == 1 and events.count("breaker_closed") == 1


def test_a_success_resets_the_consecutive_count(llm):
    pattern = iter([500, 500, 500, 500, 200] * 4)
    lock = threading.Lock()

    def behaviour(req: dict) -> Canned:
        with lock:
            status = next(pattern)
        return echo(req) if status == 200 else Canned(status=status)

    server = llm(behaviour)
    judge = make_judge(server, retries=4, breaker_threshold=5)
    assert [judge(f"q{i}") for i in range(4)] == [f"echo:q{i}" for i in range(4)]
    assert server.count == 20 and not judge.breaker.is_open


def test_429_does_not_open_the_breaker(llm):
    server = llm(sequence(*[Canned(status=429, headers={"Retry-After": "0"})] * 8, Canned()))
    judge = make_judge(server, retries=10, breaker_threshold=2)
    assert judge("q") == "echo:q"
    assert server.count == 9


def test_max_wait_bounds_a_hanging_server(llm):
    server = llm(sequence(Canned(reply="late", delay=3.0)))
    judge = make_judge(server, timeout=60.0, retries=5, backoff=1.0, max_wait=0.5, breaker_threshold=None)
    start = time.monotonic()
    with pytest.raises(JudgeError, match=r"wait bound reached.*last failure: timed out after 0.5 s"):
        judge("q1")  # the attempt's timeout is cut to what is left of max_wait
    assert time.monotonic() - start < 2.0
    start = time.monotonic()
    with pytest.raises(JudgeError, match="wait bound reached: 0.5 s") as info:
        judge("q2")
    assert "last failure" not in str(info.value)
    assert time.monotonic() - start < 0.1
    assert server.count == 1 and judge.stats["failed_fast"] == 1


def test_max_wait_cuts_the_backoff(llm):
    server = llm(sequence(Canned(status=500)))
    judge = make_judge(server, retries=5, backoff=30.0, max_wait=0.3, breaker_threshold=None)
    start = time.monotonic()
    with pytest.raises(JudgeError, match="wait bound reached"):
        judge("q")
    assert time.monotonic() - start < 2.0


def test_on_event_errors_are_ignored(llm, caplog):
    def boom(e: judge_mod.JudgeEvent) -> None:
        raise RuntimeError("display broke")

    server = llm()
    judge = make_judge(server, on_event=boom)
    assert judge("q") == "echo:q"
    assert "on_event callback raised" in caplog.text


def test_bad_fault_options(clean_env):
    with pytest.raises(ValueError, match="max_wait"):
        OpenAIJudge("m", "http://127.0.0.1:9", "k", max_wait=0)
    with pytest.raises(ValueError, match="threshold"):
        judge_mod.CircuitBreaker(threshold=0)
