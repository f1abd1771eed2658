"""poker/grpc_engine.py: every process the suite starts runs gRPC on the polling engine
(its entry points choose it; importing a module does not), unless the operator chose
otherwise, and gRPC knows the experiments it names."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from poker.grpc_engine import POLLING_ENGINE

ROOT = Path(__file__).resolve().parent.parent

SHOW = "import os; print(os.environ.get('GRPC_EXPERIMENTS'))"


def run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("GRPC_EXPERIMENTS", "POKER_GRPC_EVENT_ENGINE")}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60, check=True)


PREFER = "import poker.grpc_engine as e; e.prefer_polling_engine(); "
MAIN = ("import poker.cli\ntry:\n    poker.cli.main(['--help'])\nexcept SystemExit:\n"
        "    pass\n")


@pytest.mark.parametrize("module", ["poker", "services", "clients", "poker.cli"])
def test_importing_the_suite_changes_no_environment_variable(module: str) -> None:
    assert run(f"import {module}; {SHOW}").stdout.strip() == "None"


def test_the_poker_command_selects_the_polling_engine_before_grpc_loads() -> None:
    shown = run(MAIN + "import sys; print('grpc' in sys.modules); " + SHOW).stdout.split()
    assert shown[-2:] == ["True", POLLING_ENGINE]


def test_a_service_started_by_the_suite_runs_on_the_polling_engine() -> None:
    # poker.procs starts `python -m poker.cli serve ...`: its main chooses the engine
    # even when the parent did not.
    code = ("import sys\nsys.argv = ['poker', 'serve', 'evaluator', '--help']\n"
            "import runpy\ntry:\n    runpy.run_module('poker.cli', run_name='__main__')\n"
            "except SystemExit:\n    pass\n" + SHOW)
    assert run(code).stdout.split()[-1] == POLLING_ENGINE


def test_the_operators_own_setting_wins() -> None:
    assert run(PREFER + SHOW, GRPC_EXPERIMENTS="-event_engine_dns").stdout.strip() \
        == "-event_engine_dns"


def test_event_engine_can_be_kept() -> None:
    assert run(PREFER + SHOW, POKER_GRPC_EVENT_ENGINE="1").stdout.strip() == "None"


def test_too_late_once_grpc_is_loaded() -> None:
    code = ("import grpc, poker.grpc_engine as e; print(e.prefer_polling_engine()); "
            + SHOW)
    assert run(code).stdout.split() == ["False", "None"]


def test_grpc_knows_the_experiments() -> None:
    """gRPC logs `Unknown experiment` and runs on its default for a name it does not
    know: after a grpcio upgrade this fails rather than the setting doing nothing."""
    code = """
import poker.grpc_engine
poker.grpc_engine.prefer_polling_engine()
import asyncio, grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

async def main():
    server = grpc.aio.server()
    health_pb2_grpc.add_HealthServicer_to_server(health.aio.HealthServicer(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        reply = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
    await server.stop(None)
    print(reply.status == health_pb2.HealthCheckResponse.SERVING)

asyncio.run(main())
"""
    done = run(code)
    assert done.stdout.strip() == "True"
    assert "experiment" not in done.stderr.lower(), done.stderr
    # The same check notices a name gRPC does not know.
    bogus = run(code, GRPC_EXPERIMENTS="-no_such_experiment")
    assert "Unknown experiment" in bogus.stderr
