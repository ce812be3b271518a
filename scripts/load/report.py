"""Read locust's CSV statistics and judge them against the targets of "Fast where
players wait": no errors, p95 <= 150 ms for a page, p95 <= 400 ms for a step that changes
something (a battle's steps, a Requisition)."""

from __future__ import annotations

import csv
from dataclasses import asdict, dataclass
from pathlib import Path

PAGE_P95_MS = 150
STEP_P95_MS = 400
STEP_PREFIXES = ("battle:", "requisition:")


@dataclass
class Row:
    name: str
    method: str
    requests: int
    failures: int
    rps: float
    p50: float
    p95: float
    p99: float
    max: float

    @property
    def step(self) -> bool:
        return self.name.startswith(STEP_PREFIXES)

    @property
    def target(self) -> int | None:
        if self.name == "Aggregated":
            return None
        return STEP_P95_MS if self.step else PAGE_P95_MS

    @property
    def met(self) -> bool | None:
        if self.target is None:
            return None
        return self.failures == 0 and self.p95 <= self.target

    def as_dict(self) -> dict:
        return {**asdict(self), "target_p95_ms": self.target, "met": self.met}


def _number(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return 0.0  # "N/A": no request of that kind


def read(prefix: Path) -> list[Row]:
    with open(f"{prefix}_stats.csv", newline="") as f:
        rows = [
            Row(
                name=r["Name"],
                method=r["Type"],
                requests=int(r["Request Count"]),
                failures=int(r["Failure Count"]),
                rps=_number(r["Requests/s"]),
                p50=_number(r["50%"]),
                p95=_number(r["95%"]),
                p99=_number(r["99%"]),
                max=_number(r["Max Response Time"]),
            )
            for r in csv.DictReader(f)
        ]
    return sorted(rows, key=lambda r: (r.name == "Aggregated", r.step, r.name))


def failures(prefix: Path) -> list[str]:
    path = Path(f"{prefix}_failures.csv")
    if not path.exists():
        return []
    with open(path, newline="") as f:
        return [
            f"{r['Occurrences']}x {r['Method']} {r['Name']}: {r['Error'][:200]}"
            for r in csv.DictReader(f)
        ]


def table(rows: list[Row]) -> list[str]:
    lines = [
        "| kind | requests | errors | req/s | p50 ms | p95 ms | p99 ms | target p95 | |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        verdict = "" if r.met is None else ("MET" if r.met else "NOT MET")
        target = f"<= {r.target}" if r.target else ""
        name = "all requests" if r.name == "Aggregated" else r.name
        lines.append(
            f"| {name} | {r.requests:,} | {r.failures} | {r.rps:.1f} | {r.p50:.0f} | "
            f"{r.p95:.0f} | {r.p99:.0f} | {target} | {verdict} |"
        )
    return lines
