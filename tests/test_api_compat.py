"""The published API stays wire and JSON compatible: `buf breaking` against a baseline commit.

protos/BASELINE names a commit of main's history (not a tag) whose protos are
what integrators have; buf.yaml's `breaking` rules (WIRE_JSON, and no service or
call deleted) say what may not change: field numbers, names (the JSON form),
types, enum values, the calls and their types. Messages may move between the
files of package poker.v1. The check needs that commit in the clone: a shallow
clone fails, with a message saying so, rather than skipping.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BASELINE_FILE = ROOT / "protos" / "BASELINE"


def _buf() -> str:
    found = shutil.which("buf") or str(ROOT / "node_modules" / ".bin" / "buf")
    assert Path(found).exists(), "buf not installed: `make test` installs it with npm ci"
    return found


def baseline() -> str:
    """The baseline commit: the first line of protos/BASELINE that is not a comment."""
    lines = [
        line.strip()
        for line in BASELINE_FILE.read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert len(lines) == 1 and re.fullmatch(r"[0-9a-f]{40}", lines[0]), (
        f"{BASELINE_FILE.relative_to(ROOT)} must hold one full commit sha (40 hex digits)"
    )
    return lines[0]


def _require_commit(sha: str) -> None:
    found = subprocess.run(
        ["git", "cat-file", "-e", f"{sha}^{{commit}}"], cwd=ROOT, capture_output=True, text=True
    )
    if found.returncode != 0:
        pytest.fail(
            f"the API baseline commit {sha} (protos/BASELINE) is not in this clone "
            f"({found.stderr.strip() or 'git failed'}). The compatibility check needs the "
            "history of main: clone without --depth, or run `git fetch --unshallow`.",
            pytrace=False,
        )


def breaking(workdir: Path, sha: str) -> list[dict[str, object]]:
    """`buf breaking` of workdir/protos (with workdir/buf.yaml) against the repository at sha.

    Returns buf's findings, one dict per break; an empty list is compatible.
    """
    against = f"{ROOT / '.git'}#ref={sha},subdir=protos"
    result = subprocess.run(
        [_buf(), "breaking", "protos", "--against", against, "--error-format", "json"],
        cwd=workdir, capture_output=True, text=True,
    )
    findings = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    # buf exits 100 for breaks it found; anything else is buf failing to run.
    assert result.returncode in (0, 100), result.stdout + result.stderr
    assert (result.returncode == 100) == bool(findings), result.stdout + result.stderr
    return findings


def _describe(findings: list[dict[str, object]]) -> str:
    return "\n".join(f"{f['path']}:{f.get('start_line', '?')}: {f['type']}: {f['message']}"
                     for f in findings)


def test_api_is_wire_and_json_compatible_with_the_baseline() -> None:
    sha = baseline()
    _require_commit(sha)
    findings = breaking(ROOT, sha)
    assert not findings, (
        f"protos/ breaks the published API (baseline {sha[:12]}, protos/BASELINE):\n"
        + _describe(findings)
    )


def _copy_of_protos(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "buf.yaml", tmp_path / "buf.yaml")
    shutil.copytree(ROOT / "protos", tmp_path / "protos")
    return tmp_path


@pytest.mark.parametrize(
    ("path", "old", "new", "rule"),
    [
        # A renumbered field: the wire form changes.
        ("table_config.proto", "uint32 seats = 1;", "uint32 seats = 99;",
         "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED"),
        # A renamed field: the wire form stays, the JSON name changes.
        ("table_config.proto", "uint32 seats = 1;", "uint32 seat_count = 1;",
         "FIELD_SAME_JSON_NAME"),
        # A call gone: its path /poker.v1.DealerService/SitIn no longer answers.
        ("dealer.proto", "  rpc SitIn(SitInRequest) returns (SitInResponse);\n", "",
         "RPC_NO_DELETE"),
    ],
    ids=["renumbered-field", "renamed-field", "deleted-call"],
)
def test_the_check_catches_a_break(
    tmp_path: Path, path: str, old: str, new: str, rule: str
) -> None:
    sha = baseline()
    _require_commit(sha)
    work = _copy_of_protos(tmp_path)
    proto = work / "protos" / "poker" / "v1" / path
    text = proto.read_text()
    assert text.count(old) == 1, f"{path} no longer has {old!r}: pick another change"
    proto.write_text(text.replace(old, new))
    findings = breaking(work, sha)
    assert rule in {f["type"] for f in findings}, _describe(findings) or "no break found"


def test_an_unchanged_copy_passes(tmp_path: Path) -> None:
    """The copy the break tests change is itself compatible, so the breaks come from the change."""
    sha = baseline()
    _require_commit(sha)
    assert breaking(_copy_of_protos(tmp_path), sha) == []


def test_a_missing_baseline_fails_with_a_clear_message() -> None:
    with pytest.raises(pytest.fail.Exception, match="not in this clone"):
        _require_commit("0123456789abcdef0123456789abcdef01234567")
