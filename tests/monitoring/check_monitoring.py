#!/usr/bin/env python3
"""monitoring/: the Grafana dashboard is valid JSON with unique panel ids; the Prometheus
alert rules pass `promtool check rules` (or, without promtool, parse as YAML with the
structure Prometheus wants); the alerts the operator needs are there; and every cuzk metric
either file uses is in docs/daemon.md's metrics table (the daemon exports exactly those:
DaemonOps.EveryMetricIsDocumented). Exit 77 (a skip for ctest) when neither promtool nor
Python's yaml module is available to check the rules."""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DASHBOARD = REPO / "monitoring/grafana/cuzk-dashboard.json"
RULES = REPO / "monitoring/prometheus/cuzk-alerts.yml"
REQUIRED_ALERTS = {"CuzkProofFailures", "CuzkQueueAge", "CuzkDeadlineRisk", "CuzkDeviceLost"}

failures = []


def fail(msg):
    failures.append(msg)


def documented_metrics():
    doc = (REPO / "docs/daemon.md").read_text()
    return set(re.findall(r"^\| `(cuzk_[a-z0-9_]+)` \|", doc, re.M))


def used_metrics(expr):
    names = set()
    for m in re.findall(r"\bcuzk_[a-z0-9_]+", expr):
        for suffix in ("_bucket", "_sum", "_count"):
            if m.endswith(suffix) and m[: -len(suffix)] in KNOWN:
                m = m[: -len(suffix)]
        names.add(m)
    return names


KNOWN = documented_metrics()
if len(KNOWN) < 20:
    fail(f"docs/daemon.md: found only {len(KNOWN)} metrics in the table")

# ---- Grafana
try:
    dash = json.loads(DASHBOARD.read_text())
except json.JSONDecodeError as e:
    fail(f"{DASHBOARD}: not JSON: {e}")
    dash = {"panels": []}
ids = [p.get("id") for p in dash.get("panels", [])]
if len(ids) != len(set(ids)):
    fail(f"{DASHBOARD}: duplicate panel ids {ids}")
if not dash.get("title") or not dash.get("uid"):
    fail(f"{DASHBOARD}: no title or uid")
exprs = 0
for p in dash.get("panels", []):
    for t in p.get("targets", []):
        exprs += 1
        for name in used_metrics(t.get("expr", "")) - KNOWN:
            fail(f"{DASHBOARD}: panel '{p.get('title')}' uses {name}, which the daemon does not export")
if exprs < 10:
    fail(f"{DASHBOARD}: only {exprs} queries")

# ---- Prometheus rules
promtool = shutil.which("promtool")
if promtool:
    r = subprocess.run([promtool, "check", "rules", str(RULES)], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"promtool check rules {RULES}:\n{r.stdout}{r.stderr}")
    else:
        print(f"promtool: {r.stdout.strip()}")
try:
    import yaml  # noqa: E402
except ImportError:
    yaml = None
if yaml is None and not promtool:
    print(f"SKIP: neither promtool nor Python's yaml module is available to check {RULES} "
          "(apt-get install prometheus or python3-yaml)")
    sys.exit(77 if not failures else 1)
if yaml is not None:
    try:
        rules = yaml.safe_load(RULES.read_text())
    except yaml.YAMLError as e:
        fail(f"{RULES}: not YAML: {e}")
        rules = {}
    alerts = set()
    for g in (rules or {}).get("groups", []):
        if not g.get("name"):
            fail(f"{RULES}: a group without a name")
        for r in g.get("rules", []):
            if "alert" not in r or "expr" not in r:
                fail(f"{RULES}: rule without alert or expr: {r}")
                continue
            alerts.add(r["alert"])
            if not r.get("annotations", {}).get("summary"):
                fail(f"{RULES}: {r['alert']} has no summary")
            if r.get("labels", {}).get("severity") not in ("warning", "critical"):
                fail(f"{RULES}: {r['alert']}: severity must be warning or critical")
            if "for" in r and not re.fullmatch(r"\d+[smhd]", str(r["for"])):
                fail(f"{RULES}: {r['alert']}: bad 'for' {r['for']!r}")
            if str(r["expr"]).count("(") != str(r["expr"]).count(")"):
                fail(f"{RULES}: {r['alert']}: unbalanced parentheses in expr")
            for name in used_metrics(str(r["expr"])) - KNOWN:
                fail(f"{RULES}: {r['alert']} uses {name}, which the daemon does not export")
    for a in sorted(REQUIRED_ALERTS - alerts):
        fail(f"{RULES}: no alert {a}")
    if not promtool:
        print(f"promtool not installed: {RULES} checked as YAML ({len(alerts)} alerts)")

if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print(f"monitoring ok: {len(ids)} panels, {exprs} queries")
