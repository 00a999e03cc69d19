"""LLM judges: a ``Judge`` protocol (prompt → reply text), a batch helper, and one real
implementation that speaks the OpenAI-compatible chat-completions HTTP API.

Scorers that fall back to an LLM (PHYSICS ``is_equiv``, LiveXivVQA/MCQ when ``can_infer``
finds nothing) take any :class:`Judge`: a plain ``str -> str`` callable qualifies, so tests
and offline runs can pass a lambda. :func:`judge_many` judges a batch of prompts
concurrently and never raises on a failed prompt: the failure is recorded in the row's
:class:`JudgeReply` (``error``), so nothing is lost.

:class:`OpenAIJudge` needs nothing beyond the standard library (``urllib.request`` +
``json``). It retries connection errors, timeouts, 429 and 5xx with exponential backoff and
jitter (honouring ``Retry-After``), bounds the requests in flight with a semaphore shared by
all calls of the instance, and keeps an on-disk cache keyed by (model, system, prompt,
sampling parameters), so a re-run costs nothing and gives the same verdicts.

A dead or failing server cannot stall a run: a circuit breaker opens after
``breaker_threshold`` consecutive failed requests (5 by default) and then every call fails
at once (also calls waiting between retries), until ``breaker_cooldown`` seconds have passed
and one probe request succeeds; and ``max_wait`` bounds the total time the instance spends
on failed requests and on the waits between retries. Progress (requests, cache hits,
retries, failures, breaker changes) goes to an ``on_event`` callback; nothing is printed.

Example (not a doctest: it needs a server)::

    judge = OpenAIJudge("gpt-4o-mini")                      # key from $OPENAI_API_KEY
    replies = judge_many(judge, ["Is 1/2 equal to 0.5? Answer True or False."])
    replies[0].reply, replies[0].cached                     # ('True', False)
    save_responses(replies, "results/judge.jsonl")          # --save-judge-responses
"""

from __future__ import annotations

import email.utils
import hashlib
import http.client
import json
import logging
import os
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "DEFAULT_BASE_URL",
    "Judge",
    "CircuitBreaker",
    "JudgeError",
    "JudgeEvent",
    "JudgeReply",
    "OpenAIJudge",
    "RecordingJudge",
    "default_cache_dir",
    "judge_many",
    "save_responses",
]

log = logging.getLogger("gaia_fast.judge")

#: Used when neither ``base_url=`` nor ``$OPENAI_BASE_URL`` is given.
DEFAULT_BASE_URL = "https://api.openai.com/v1"

#: Environment variables read when the matching option is not given (first set one wins).
MODEL_ENV = ("GAIA_FAST_JUDGE_MODEL", "OPENAI_MODEL")
BASE_URL_ENV = "OPENAI_BASE_URL"
API_KEY_ENV = "OPENAI_API_KEY"

#: Longest single wait between two attempts, whatever the backoff or ``Retry-After`` say.
MAX_RETRY_WAIT = 120.0

#: Characters of a failed response body kept in a :class:`JudgeError` message.
_BODY_EXCERPT = 500

#: Format version of a cache entry; bump it to invalidate every entry.
_CACHE_VERSION = 1


@runtime_checkable
class Judge(Protocol):
    """Anything that maps a prompt to the judge's reply text. A plain function qualifies.

    A judge may raise on failure; :func:`judge_many` records the exception per prompt."""

    def __call__(self, prompt: str) -> str: ...


@dataclass(frozen=True)
class JudgeReply:
    """One judged prompt. ``reply`` is ``""`` when ``error`` is set (the call failed after
    its retries); ``cached`` tells whether the reply came from the on-disk cache."""

    prompt: str
    reply: str
    model: str | None = None
    cached: bool = False
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class JudgeError(RuntimeError):
    """A judge request failed: a non-retryable HTTP status, retries exhausted, or a reply
    that is not a chat completion. ``status`` is the last HTTP status (None when the
    failure was not an HTTP response: connection error, timeout, malformed body)."""

    def __init__(self, message: str, *, status: int | None = None, body: str | None = None, attempts: int = 1):
        super().__init__(message)
        self.status = status
        self.body = body
        self.attempts = attempts


@dataclass(frozen=True)
class JudgeEvent:
    """What a judge is doing, for a progress display (``on_event`` callback).

    ``kind``: ``"request"`` (a prompt goes to the server: not in the cache), ``"cache_hit"``,
    ``"retry"`` (an attempt failed; another follows after ``wait`` seconds), ``"success"``,
    ``"failure"`` (the prompt failed: ``message``), ``"breaker_open"``, ``"breaker_closed"``.
    """

    kind: str
    message: str | None = None
    wait: float | None = None


class CircuitBreaker:
    """Fails calls at once after ``threshold`` consecutive failures.

    Closed: every call goes through; each failure adds one to a count that a success
    resets. At ``threshold`` the breaker opens: :meth:`check` raises :class:`JudgeError`
    until ``cooldown`` seconds have passed, then lets one probe through (half-open); the
    probe's success closes the breaker, its failure opens it for another ``cooldown``.
    Threads sleeping between retries (:meth:`sleep`) wake up when it opens. Thread-safe."""

    def __init__(self, threshold: int = 5, cooldown: float = 30.0, on_change: Callable[[bool, str], None] | None = None) -> None:
        if threshold < 1:
            raise ValueError(f"CircuitBreaker: threshold must be >= 1, got {threshold}")
        if cooldown < 0:
            raise ValueError(f"CircuitBreaker: cooldown must be >= 0, got {cooldown}")
        self.threshold = int(threshold)
        self.cooldown = float(cooldown)
        self._on_change = on_change
        self._cond = threading.Condition()
        self._failures = 0
        self._open_until: float | None = None  # None: closed
        self._probe = False  # a half-open probe is in flight
        self._last = ""

    @property
    def is_open(self) -> bool:
        with self._cond:
            return self._open_until is not None

    def check(self) -> None:
        """Raise :class:`JudgeError` when the breaker is open (and it is not time for the
        one half-open probe)."""
        with self._cond:
            if self._open_until is None:
                return
            if not self._probe and time.monotonic() >= self._open_until:
                self._probe = True
                return
            raise JudgeError(
                f"judge circuit breaker open after {self._failures} consecutive failed request(s); "
                f"not asking (last failure: {self._last})"
            )

    def success(self) -> None:
        with self._cond:
            was_open = self._open_until is not None
            self._failures, self._open_until, self._probe = 0, None, False
        if was_open:
            self._notify(False, "a request succeeded")

    def failure(self, message: str) -> None:
        with self._cond:
            self._failures += 1
            self._last = message
            opening = self._probe or (self._open_until is None and self._failures >= self.threshold)
            was_open = self._open_until is not None
            if opening or was_open:
                self._open_until = time.monotonic() + self.cooldown
                self._probe = False
                self._cond.notify_all()
        if opening and not was_open:
            self._notify(True, message)

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds``, or less if the breaker opens meanwhile."""
        if seconds <= 0:
            return
        deadline = time.monotonic() + seconds
        with self._cond:
            while self._open_until is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._cond.wait(left)

    def _notify(self, opened: bool, message: str) -> None:
        if self._on_change is not None:
            self._on_change(opened, message)


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/gaia-fast/judge``, i.e. ``~/.cache/gaia-fast/judge`` by default."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gaia-fast" / "judge"


def _env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


def _atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` through a temporary file in ``path``'s folder and ``os.replace``."""
    from gaia_fast.io.writers import atomic_path  # local: io pulls in polars

    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def _dumps(obj: Any) -> str:
    """JSON text, non-ASCII kept readable unless it holds a lone surrogate (which UTF-8
    cannot encode; then everything is escaped)."""
    text = json.dumps(obj, ensure_ascii=False, default=str)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(obj, default=str)
    return text


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date); None if absent
    or unreadable."""
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _sleep(breaker: CircuitBreaker | None, seconds: float) -> None:
    """The wait between two attempts; cut short when the breaker opens."""
    if breaker is not None:
        breaker.sleep(seconds)
    else:
        time.sleep(seconds)


class _Retryable(Exception):
    """Internal: one attempt failed in a way worth retrying."""

    def __init__(self, message: str, *, status: int | None = None, body: str | None = None, wait: float | None = None):
        super().__init__(message)
        self.status = status
        self.body = body
        self.wait = wait


class OpenAIJudge:
    """A judge that asks an OpenAI-compatible ``/chat/completions`` endpoint.

    Options fall back to the environment: ``model`` to ``$GAIA_FAST_JUDGE_MODEL`` then
    ``$OPENAI_MODEL``; ``base_url`` to ``$OPENAI_BASE_URL`` then ``https://api.openai.com/v1``;
    ``api_key`` to ``$OPENAI_API_KEY``. A missing model or key raises ValueError (servers
    without authentication accept any placeholder key, e.g. ``"EMPTY"``).

    Each prompt is sent as one user message (after ``system``, when given) with
    ``temperature``, ``max_tokens`` (when not None) and ``extra_body`` merged into the
    request. ``timeout`` is per attempt; ``retries`` is the number of extra attempts after a
    connection error, timeout, 429 or 5xx, waiting ``backoff * 2**n`` seconds with ±50 %
    jitter (or ``Retry-After`` when the server sends it; at most 120 s). Other 4xx statuses
    raise :class:`JudgeError` at once. At most ``concurrency`` requests of this instance are
    in flight at any time, across threads.

    Fault bounds (for the life of the instance, i.e. one grading run): after
    ``breaker_threshold`` consecutive failed requests (any attempt that failed, except a
    429, which is the server pacing us) the :class:`CircuitBreaker` opens and every call
    raises :class:`JudgeError` at once, including calls waiting to retry; after
    ``breaker_cooldown`` seconds one probe is let through and a success closes it
    (``breaker_threshold=None`` disables it). ``max_wait`` (seconds, None = no bound)
    bounds the time spent on failed attempts and on waits between attempts, summed over
    all calls: once spent, calls raise :class:`JudgeError` at once and an attempt's own
    timeout is cut to what is left. ``on_event`` receives a :class:`JudgeEvent` for each
    request, cache hit, retry, success, failure and breaker change (from the calling
    threads; it must be quick and thread-safe; an exception in it is logged and ignored).

    ``cache_dir`` (default :func:`default_cache_dir`; ``False`` disables the cache) holds one
    JSON file per (model, system, prompt, temperature, max_tokens, extra_body); a hit makes
    no request. The base URL and key are not part of the key. Only successful replies are
    cached.
    """

    def __init__(
        self,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        temperature: float | None = 0.0,
        max_tokens: int | None = None,
        system: str | None = None,
        timeout: float = 60.0,
        retries: int = 5,
        backoff: float = 1.0,
        concurrency: int = 8,
        cache_dir: str | os.PathLike | bool | None = None,
        extra_body: Mapping[str, Any] | None = None,
        breaker_threshold: int | None = 5,
        breaker_cooldown: float = 30.0,
        max_wait: float | None = None,
        on_event: Callable[[JudgeEvent], None] | None = None,
    ) -> None:
        model = model or _env(*MODEL_ENV)
        if not model:
            raise ValueError(f"OpenAIJudge: no judge model; pass model= or set ${MODEL_ENV[0]} (or ${MODEL_ENV[1]})")
        api_key = api_key or _env(API_KEY_ENV)
        if not api_key:
            raise ValueError(
                f"OpenAIJudge: no API key; pass api_key= or set ${API_KEY_ENV} "
                "(for a server without authentication any placeholder such as 'EMPTY' works)"
            )
        if retries < 0:
            raise ValueError(f"OpenAIJudge: retries must be >= 0, got {retries}")
        if concurrency < 1:
            raise ValueError(f"OpenAIJudge: concurrency must be >= 1, got {concurrency}")
        if timeout <= 0:
            raise ValueError(f"OpenAIJudge: timeout must be > 0, got {timeout}")
        if max_wait is not None and not max_wait > 0:
            raise ValueError(f"OpenAIJudge: max_wait must be > 0 seconds or None, got {max_wait}")
        base = (base_url or _env(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")
        self.model: str = model
        self.base_url: str = base
        self.url: str = base if base.endswith("/chat/completions") else base + "/chat/completions"
        self._api_key = api_key
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.system = system
        self.timeout = float(timeout)
        self.retries = int(retries)
        self.backoff = float(backoff)
        self.concurrency = int(concurrency)
        self.extra_body: dict[str, Any] = dict(extra_body or {})
        if cache_dir is False:
            self.cache_dir: Path | None = None
        elif cache_dir is None or cache_dir is True:
            self.cache_dir = default_cache_dir()
        else:
            self.cache_dir = Path(cache_dir).expanduser()
        self._semaphore = threading.BoundedSemaphore(self.concurrency)
        self._stats_lock = threading.Lock()
        self._stats = {"requests": 0, "cache_hits": 0, "retries": 0, "failures": 0, "failed_fast": 0}
        self.on_event = on_event
        self.max_wait = None if max_wait is None else float(max_wait)
        self._waited = 0.0  # seconds of failed attempts and retry waits, summed over calls
        self.breaker: CircuitBreaker | None = (
            None if not breaker_threshold else CircuitBreaker(breaker_threshold, breaker_cooldown, on_change=self._breaker_changed)
        )

    def __repr__(self) -> str:
        cache = str(self.cache_dir) if self.cache_dir else "off"
        return f"OpenAIJudge(model={self.model!r}, base_url={self.base_url!r}, cache={cache})"

    # -- public ---------------------------------------------------------------------

    def __call__(self, prompt: str) -> str:
        """The reply text; raises :class:`JudgeError` when the request fails."""
        return self.ask(prompt).reply

    def ask(self, prompt: str) -> JudgeReply:
        """Judge one prompt (cache first); raises :class:`JudgeError` on failure."""
        if not isinstance(prompt, str):
            raise TypeError(f"judge prompt must be str, not {type(prompt).__name__}")
        key = self.cache_key(prompt)
        hit = self._cache_get(key, prompt)
        if hit is not None:
            self._count("cache_hits")
            self._emit(JudgeEvent("cache_hit"))
            return JudgeReply(prompt=prompt, reply=hit, model=self.model, cached=True)
        reply = self._request(prompt)
        self._cache_put(key, prompt, reply)
        return JudgeReply(prompt=prompt, reply=reply, model=self.model, cached=False)

    @property
    def stats(self) -> dict[str, int]:
        """Counters since construction: HTTP requests sent (each attempt), cache hits,
        retries, prompts that failed, and of them those failed at once (breaker open or
        ``max_wait`` spent)."""
        with self._stats_lock:
            return dict(self._stats)

    def params(self) -> dict[str, Any]:
        """The sampling parameters that are part of the cache key."""
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, "extra_body": self.extra_body}

    def cache_key(self, prompt: str) -> str:
        """sha256 hex of model, system, prompt and :meth:`params` (NUL-separated)."""
        params = json.dumps(self.params(), sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
        material = "\0".join((self.model, self.system or "", prompt, params))
        return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()

    def body(self, prompt: str) -> dict[str, Any]:
        """The JSON request body for ``prompt``."""
        messages = []
        if self.system is not None:
            messages.append({"role": "system", "content": self.system})
        messages.append({"role": "user", "content": prompt})
        body: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        body.update(self.extra_body)
        return body

    # -- cache ----------------------------------------------------------------------

    def _cache_path(self, key: str) -> Path:
        assert self.cache_dir is not None
        return self.cache_dir / key[:2] / f"{key}.json"

    def _cache_get(self, key: str, prompt: str) -> str | None:
        if self.cache_dir is None:
            return None
        path = self._cache_path(key)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("judge cache: cannot read %s (%s); asking again", path, exc)
            return None
        try:
            entry = json.loads(text)
            reply = entry["reply"]
            ok = (
                entry.get("version") == _CACHE_VERSION
                and entry.get("model") == self.model
                and entry.get("prompt") == prompt
                and isinstance(reply, str)
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            ok = False
        if not ok:
            log.warning("judge cache: ignoring unreadable or mismatched entry %s", path)
            return None
        return reply

    def _cache_put(self, key: str, prompt: str, reply: str) -> None:
        if self.cache_dir is None:
            return
        entry = {
            "version": _CACHE_VERSION,
            "model": self.model,
            "system": self.system,
            "params": self.params(),
            "prompt": prompt,
            "reply": reply,
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        path = self._cache_path(key)
        try:
            _atomic_write_text(path, _dumps(entry))
        except OSError as exc:  # a read-only cache must not fail the grading
            log.warning("judge cache: cannot write %s (%s)", path, exc)

    # -- HTTP -----------------------------------------------------------------------

    def _count(self, name: str, n: int = 1) -> None:
        with self._stats_lock:
            self._stats[name] += n

    def _wait(self, attempt: int, hint: float | None) -> float:
        if hint is not None:
            return min(hint, MAX_RETRY_WAIT)
        base = self.backoff * (2**attempt)
        return min(base * random.uniform(0.5, 1.5), MAX_RETRY_WAIT)

    def _emit(self, event: JudgeEvent) -> None:
        if self.on_event is None:
            return
        try:
            self.on_event(event)
        except Exception:  # noqa: BLE001 - a broken display must not fail the judging
            log.warning("judge on_event callback raised", exc_info=True)

    def _breaker_changed(self, opened: bool, message: str) -> None:
        if opened:
            log.warning("judge circuit breaker open after %d consecutive failures (last: %s); remaining calls fail at once",
                        self.breaker.threshold if self.breaker else 0, message)
        self._emit(JudgeEvent("breaker_open" if opened else "breaker_closed", message))

    def _left(self) -> float | None:
        """Seconds of ``max_wait`` left (None: unbounded)."""
        if self.max_wait is None:
            return None
        with self._stats_lock:
            return self.max_wait - self._waited

    def _spend(self, seconds: float) -> None:
        if self.max_wait is not None and seconds > 0:
            with self._stats_lock:
                self._waited += seconds

    def _gate(self, last: str | None) -> None:
        """Raise :class:`JudgeError` at once when the breaker is open or ``max_wait`` is spent
        (``last``: this call's previous failure, for the message)."""
        left = self._left()
        if left is not None and left <= 0:
            tail = f" (this prompt's last failure: {last})" if last else ""
            raise JudgeError(f"judge wait bound reached: {self.max_wait:g} s spent on failed requests and retry waits; not asking{tail}")
        if self.breaker is not None:
            self.breaker.check()

    def _fail(self, exc: JudgeError, *, fast: bool = False) -> JudgeError:
        self._count("failures")
        if fast:
            self._count("failed_fast")
        self._emit(JudgeEvent("failure", str(exc)))
        return exc

    def _request(self, prompt: str) -> str:
        # ASCII JSON: a lone surrogate in a prompt becomes a valid escape sequence.
        data = json.dumps(self.body(prompt)).encode("ascii")
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Authorization": f"Bearer {self._api_key}",
            "User-Agent": "gaia-fast-judge",
        }
        attempts = self.retries + 1
        self._emit(JudgeEvent("request"))
        last: str | None = None
        for attempt in range(attempts):
            with self._semaphore:
                try:
                    self._gate(last)  # also after queueing for the semaphore: the breaker may have opened
                except JudgeError as exc:
                    exc.attempts = attempt
                    raise self._fail(exc, fast=attempt == 0) from None
                left = self._left()
                timeout = self.timeout if left is None else max(0.001, min(self.timeout, left))
                started = time.monotonic()
                self._count("requests")
                try:
                    reply = self._attempt(data, headers, timeout)
                except _Retryable as exc:
                    self._spend(time.monotonic() - started)
                    failed: Exception = exc
                except JudgeError as exc:
                    self._spend(time.monotonic() - started)
                    if self.breaker is not None:
                        self.breaker.failure(str(exc))
                    exc.attempts = attempt + 1
                    raise self._fail(exc) from None
                else:
                    if self.breaker is not None:
                        self.breaker.success()
                    self._emit(JudgeEvent("success"))
                    return reply
            assert isinstance(failed, _Retryable)
            last = str(failed)
            if self.breaker is not None and failed.status != 429:
                self.breaker.failure(str(failed))
            if attempt + 1 >= attempts:
                raise self._fail(
                    JudgeError(
                        f"judge request to {self.url} failed after {attempts} attempt(s): {failed}",
                        status=failed.status,
                        body=failed.body,
                        attempts=attempts,
                    )
                ) from None
            wait = self._wait(attempt, failed.wait)
            left = self._left()
            if left is not None:
                wait = max(0.0, min(wait, left))
            self._count("retries")
            self._emit(JudgeEvent("retry", str(failed), wait))
            log.info("judge request failed (%s); retry %d/%d in %.2f s", failed, attempt + 1, self.retries, wait)
            if wait > 0:
                slept = time.monotonic()
                _sleep(self.breaker, wait)
                self._spend(time.monotonic() - slept)
        raise AssertionError("unreachable")  # pragma: no cover

    def _attempt(self, data: bytes, headers: dict[str, str], timeout: float) -> str:
        request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw = response.read()
                status = response.status
        except urllib.error.HTTPError as exc:
            status = exc.code
            try:
                body = exc.read().decode("utf-8", "replace")
            except (OSError, http.client.HTTPException):  # the body is only for the message
                body = ""
            excerpt = body[:_BODY_EXCERPT]
            if status == 429 or 500 <= status <= 599:
                raise _Retryable(f"HTTP {status}: {excerpt}", status=status, body=excerpt, wait=_retry_after(exc.headers.get("Retry-After"))) from None
            raise JudgeError(f"judge request to {self.url} failed: HTTP {status}: {excerpt}", status=status, body=excerpt) from None
        except TimeoutError as exc:
            raise _Retryable(f"timed out after {timeout:g} s ({exc})") from None
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, TimeoutError):
                raise _Retryable(f"timed out after {timeout:g} s ({reason})") from None
            raise _Retryable(f"connection error: {reason}") from None
        except (http.client.HTTPException, ConnectionError, OSError) as exc:
            raise _Retryable(f"connection error: {type(exc).__name__}: {exc}") from None
        return self._parse(raw, status)

    def _parse(self, raw: bytes, status: int) -> str:
        text = raw.decode("utf-8", "replace")
        try:
            payload = json.loads(text)
        except ValueError:
            # A truncated or garbled body (a proxy hiccup) is worth another try.
            raise _Retryable(f"HTTP {status} with a body that is not JSON: {text[:_BODY_EXCERPT]!r}", status=status, body=text[:_BODY_EXCERPT]) from None
        try:
            message = payload["choices"][0]["message"]
            content = message.get("content")
        except (KeyError, IndexError, TypeError, AttributeError):
            raise JudgeError(f"judge reply is not a chat completion: {text[:_BODY_EXCERPT]}", status=status, body=text[:_BODY_EXCERPT]) from None
        if isinstance(content, list):  # content parts
            content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
        if not isinstance(content, str):
            refusal = message.get("refusal") if isinstance(message, dict) else None
            detail = f" (refusal: {refusal})" if refusal else ""
            raise JudgeError(f"judge reply has no text content{detail}: {text[:_BODY_EXCERPT]}", status=status, body=text[:_BODY_EXCERPT])
        return content


def judge_many(judge: Judge | Callable[[str], str], prompts: Iterable[str], *, concurrency: int | None = None) -> list[JudgeReply]:
    """Judge ``prompts`` concurrently; one :class:`JudgeReply` per prompt, in input order.

    Identical prompts are asked once. A prompt whose judge call raises gets ``reply=""``
    and ``error`` = the exception text; nothing raises on a failed prompt. ``concurrency``
    defaults to the judge's own ``concurrency`` attribute (8 for a plain callable); the
    judge may bound its requests further (:class:`OpenAIJudge` does)."""
    prompts = list(prompts)
    if not prompts:
        return []
    for i, p in enumerate(prompts):
        if not isinstance(p, str):
            raise TypeError(f"judge_many: prompt {i} is {type(p).__name__}, not str")
    if concurrency is None:
        concurrency = getattr(judge, "concurrency", None) or 8
    if concurrency < 1:
        raise ValueError(f"judge_many: concurrency must be >= 1, got {concurrency}")
    model = getattr(judge, "model", None)
    model = model if isinstance(model, str) else None
    ask = getattr(judge, "ask", None)

    def one(prompt: str) -> JudgeReply:
        try:
            if callable(ask):
                result = ask(prompt)
                if isinstance(result, JudgeReply):
                    return result
                reply = result
            else:
                reply = judge(prompt)
            if not isinstance(reply, str):
                raise TypeError(f"judge returned {type(reply).__name__}, not str")
            return JudgeReply(prompt=prompt, reply=reply, model=model)
        except Exception as exc:  # recorded per prompt
            log.debug("judge call failed", exc_info=True)
            return JudgeReply(prompt=prompt, reply="", model=model, error=f"{type(exc).__name__}: {exc}")

    unique = list(dict.fromkeys(prompts))
    workers = min(concurrency, len(unique))
    if workers == 1:
        results = [one(p) for p in unique]
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gaia-fast-judge") as pool:
            results = list(pool.map(one, unique))
    by_prompt = dict(zip(unique, results))
    return [by_prompt[p] for p in prompts]


def save_responses(replies: Iterable[JudgeReply], path: str | os.PathLike) -> Path:
    """Write ``replies`` as JSON Lines (prompt, reply, model, cached, error), atomically
    (temporary file + ``os.replace``); parent folders are created. Returns the path."""
    dest = Path(path)
    lines = []
    for r in replies:
        if not isinstance(r, JudgeReply):
            raise TypeError(f"save_responses: expected JudgeReply, got {type(r).__name__}")
        lines.append(_dumps(asdict(r)) + "\n")
    _atomic_write_text(dest, "".join(lines))
    return dest


class RecordingJudge:
    """Wraps a judge and keeps every prompt and reply, for ``--save-judge-responses``."""

    def __init__(self, inner: Callable[[str], str]) -> None:
        self.inner = inner
        self.replies: list[JudgeReply] = []
        self._lock = threading.Lock()

    def ask(self, prompt: str) -> JudgeReply:
        ask = getattr(self.inner, "ask", None)
        try:
            reply = ask(prompt) if callable(ask) else JudgeReply(prompt, self.inner(prompt), getattr(self.inner, "model", None))
        except Exception as e:
            with self._lock:
                self.replies.append(JudgeReply(prompt, "", getattr(self.inner, "model", None), error=f"{type(e).__name__}: {e}"))
            raise
        with self._lock:
            self.replies.append(reply)
        return reply

    def __call__(self, prompt: str) -> str:
        return self.ask(prompt).reply
