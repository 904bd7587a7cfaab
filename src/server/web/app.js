// cuzk-daemon's dashboard: one page, a view per hash (#overview, #timeline, #jobs,
// #job/<id>, #params, #config), each drawn from the daemon's JSON API and refreshed every
// POLL_MS while shown. Text from the daemon enters the page as text nodes only.
"use strict";

const POLL_MS = 2000;
const PHASE_COLORS = {
  queue_wait: "#c9d3dd", param_load: "#9c7cd1", memory_wait: "#e0b84c", witness: "#3f9c5a",
  prove: "#2763c4", verify: "#d9822b", recompute_cpu: "#b3261e",
  h: "#6fa8ff", device_h: "#6fa8ff", device_h_msm: "#6fa8ff", msm_h: "#1f4f9e",
  msm_l: "#14376f", msm_a: "#4c6ed1", msm_b_g1: "#5a87e0", msm_b_g2: "#7aa0eb",
  device_msm_z: "#14376f", device_msm_g1: "#4c6ed1", device_msm_g2: "#7aa0eb", assemble: "#888",
};
const ENGINE_PHASES = ["queue_wait", "param_load", "memory_wait", "witness", "prove", "verify", "recompute_cpu"];

let timer = null;
let current = null;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "style") e.style.cssText = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c === undefined || c === null ? "" : String(c)));
  return e;
}
function fill(tbody, rows) { tbody.replaceChildren(...rows); }
function tr(...cells) { return el("tr", {}, ...cells.map((c) => (c instanceof Node && c.tagName === "TD" ? c : el("td", {}, c)))); }
function num(v) { return el("td", { class: "num" }, v); }
function bytes(n) {
  if (!n) return "0";
  const u = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < u.length - 1) { n /= 1024; ++i; }
  return n.toFixed(i ? 1 : 0) + " " + u[i];
}
function dur(ms) {
  if (ms === undefined || ms === null) return "";
  if (ms < 1000) return ms.toFixed(ms < 10 ? 2 : 0) + " ms";
  if (ms < 120000) return (ms / 1000).toFixed(1) + " s";
  return (ms / 60000).toFixed(1) + " min";
}
function when(unixMs) { return unixMs ? new Date(unixMs).toLocaleTimeString() : ""; }
function pct(r) { return (100 * r).toFixed(0) + " %"; }

function message(text, isError) {
  const m = document.getElementById("msg");
  m.textContent = text;
  m.className = "msg" + (isError ? " error" : "");
  m.hidden = !text;
}

async function getJSON(path) {
  const r = await fetch(path, { cache: "no-store" });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(path + ": " + r.status + " " + (body.error || r.statusText));
  return body;
}

// ---- views ----------------------------------------------------------------------------

async function showOverview() {
  const o = await getJSON("/api/overview");
  const card = (k, v, cls) => el("div", { class: "card" }, el("div", { class: "v " + (cls || "") }, v), el("div", { class: "k" }, k));
  const j = o.jobs;
  const perHour = o.kinds.reduce((s, k) => s + k.proofs_per_hour, 0);
  fill(document.getElementById("ov-cards"), [
    card("backend", o.backend), card("uptime", dur(o.uptime_seconds * 1000)),
    card("accepting", o.accepting ? "yes" : "no (shutting down)", o.accepting ? "" : "bad"),
    card("queued / running", j.queued + " / " + j.running), card("completed", j.completed),
    card("failed", j.failed, j.failed ? "bad" : ""), card("proofs / hour", perHour.toFixed(1)),
    card("deadline risks / missed", j.deadline_risks + " / " + j.deadlines_missed, j.deadline_risks ? "risk" : ""),
    card("$ / hour", o.cost.dollars_per_hour ? o.cost.dollars_per_hour.toFixed(2) : "not set"),
  ]);
  fill(document.querySelector("#ov-devices tbody"), o.devices.map((d) => tr(
    d.ordinal < 0 ? "cpu" : "gpu " + d.ordinal, d.name, pct(d.busy_ratio),
    d.memory_total_bytes ? bytes(d.memory_total_bytes - d.memory_free_bytes) + " of " + bytes(d.memory_total_bytes) : "",
    d.current_job_id ? el("a", { href: "#job/" + d.current_job_id }, d.current_job_id) : "idle", num(d.partitions_proven))));
  const m = o.memory;
  const frac = m.budget_bytes ? m.reserved_bytes / m.budget_bytes : 0;
  fill(document.getElementById("ov-memory"), [el("span", { class: "bar" }, el("span", { style: "width:" + (100 * Math.min(1, frac)).toFixed(1) + "%" })),
    " reserved " + bytes(m.reserved_bytes) + " of the budget " + bytes(m.budget_bytes) + " (most at once " + bytes(m.high_water_bytes) +
    "); process resident " + bytes(m.rss_bytes) + "; idle pool " + bytes(m.pooled_bytes)]);
  fill(document.querySelector("#ov-queue tbody"), o.queue.length ? o.queue.map((q) => tr(q.kind, q.priority, num(q.queued), num(q.running)))
    : [tr(el("td", { colspan: 4, class: "muted" }, "nothing queued or running"))]);
  fill(document.querySelector("#ov-kinds tbody"), o.kinds.map((k) => tr(k.kind, num(k.started), num(k.completed),
    el("td", { class: "num" + (k.failed ? " bad" : "") }, k.failed), num(k.cancelled),
    el("td", { class: "num" + (k.deadline_risks ? " risk" : "") }, k.deadline_risks + " / " + k.deadlines_missed),
    num(dur(k.mean_duration_s * 1000)), num(dur(k.mean_queue_wait_s * 1000)), num(k.proofs_per_hour.toFixed(1)),
    num(o.cost.dollars_per_hour ? "$" + k.dollars_per_proof.toFixed(4) : "—"))));
}

// Rows (one per job and partition) of spans across [from, to] ms of the engine's clock:
// the engine's stages in the upper half of a row, the prover's steps (H, MSMs, device
// stages) in the lower half.
function drawTimeline(container, spans, jobs, from, to) {
  const state = {};
  for (const j of jobs || []) state[j.job_id] = j;
  const rows = new Map();
  for (const s of spans) {
    const key = s.job_id + "/" + s.partition;
    if (!rows.has(key)) rows.set(key, { job: s.job_id, partition: s.partition, device: s.device, spans: [] });
    const row = rows.get(key);
    if (s.device >= 0) row.device = s.device;
    row.spans.push(s);
  }
  if (!rows.size) {
    container.replaceChildren(el("div", { class: "empty" }, "no spans in this window"));
    return;
  }
  const width = Math.max(1, to - from);
  const out = [];
  for (const row of rows.values()) {
    const lane = el("div", { class: "lane" });
    for (const s of row.spans) {
      const left = Math.max(0, (s.start_ms - from) / width) * 100;
      const w = Math.max(0, (Math.min(s.end_ms, to) - Math.max(s.start_ms, from)) / width) * 100;
      const top = ENGINE_PHASES.includes(s.name) ? "top:0;bottom:50%" : "top:50%;bottom:0";
      lane.append(el("div", {
        class: "span", "data-phase": s.name, title: s.name + " (" + s.layer + ") " + dur(s.end_ms - s.start_ms),
        style: "left:" + left.toFixed(3) + "%;width:" + w.toFixed(3) + "%;" + top + ";background:" + (PHASE_COLORS[s.name] || "#999"),
      }));
    }
    const j = state[row.job];
    const label = row.job + " p" + row.partition + (row.device >= 0 ? " gpu" + row.device : "") + (j ? " " + j.kind : "");
    out.push(el("div", { class: "row", "data-job": row.job }, el("a", { class: "label", href: "#job/" + row.job, title: label }, label), lane));
  }
  container.replaceChildren(...out);
}

function legend() {
  const l = document.getElementById("tl-legend");
  if (l.childNodes.length) return;
  for (const p of ["queue_wait", "param_load", "witness", "prove", "h", "msm_h", "msm_l", "msm_a", "msm_b_g2", "verify"])
    l.append(el("i", { style: "background:" + PHASE_COLORS[p] }), p);
}

async function showTimeline() {
  legend();
  const seconds = document.getElementById("tl-seconds").value;
  const t = await getJSON("/api/timeline?seconds=" + encodeURIComponent(seconds));
  // The window ends now and starts at the first span within it, so that a short burst of
  // work fills the chart rather than a sliver of it.
  const first = t.spans.length ? Math.min(...t.spans.map((s) => s.start_ms)) : t.from_ms;
  const from = Math.max(t.from_ms, first - 0.02 * (t.now_ms - first));
  document.getElementById("tl-range").textContent = "from " + dur(t.now_ms - from) + " ago to now";
  drawTimeline(document.getElementById("tl-chart"), t.spans, t.jobs, from, t.now_ms);
}

async function showJobs() {
  const kind = document.getElementById("jobs-kind").value.trim();
  const state = document.getElementById("jobs-state").value;
  const q = new URLSearchParams();
  if (kind) q.set("kind", kind);
  if (state) q.set("state", state);
  const r = await getJSON("/api/jobs?" + q.toString());
  fill(document.querySelector("#jobs-table tbody"), r.jobs.length ? r.jobs.map((j) => tr(
    el("a", { href: "#job/" + j.job_id }, j.job_id), j.kind, j.circuit_id, j.priority,
    el("td", { class: "state-" + j.state }, j.state + (j.deadline_missed ? " (deadline)" : "")),
    num(j.partitions_done + " / " + j.partitions_total), when(j.submitted_unix_ms),
    el("td", { class: j.deadline_at_risk ? "risk" : "" }, when(j.deadline_unix_ms) + (j.deadline_at_risk ? " at risk" : "")),
    num(dur(j.timings_ms.total)))) : [tr(el("td", { colspan: 9, class: "muted" }, "no jobs"))]);
}

async function showJob(id) {
  const j = await getJSON("/api/jobs/" + encodeURIComponent(id));
  document.getElementById("job-title").textContent = j.job_id;
  const t = j.timings_ms;
  const rows = [["kind", j.kind], ["circuit", j.circuit_id], ["priority", j.priority], ["state", j.state],
    ["partitions", j.partitions_done + " / " + j.partitions_total], ["submitted", when(j.submitted_unix_ms)],
    ["deadline", j.deadline_unix_ms ? when(j.deadline_unix_ms) + (j.deadline_missed ? " (missed)" : j.deadline_at_risk ? " (at risk)" : "") : "none"],
    ["backend", j.backend], ["error", j.error], ["queue wait", dur(t.queue_wait)], ["parameter load", dur(t.param_load)],
    ["witness", dur(t.witness)], ["prove", dur(t.prove)], ["verify", dur(t.verify)], ["total", dur(t.total)]];
  fill(document.querySelector("#job-fields tbody"), rows.map(([k, v]) => tr(k, v)));
  fill(document.querySelector("#job-phases tbody"), j.phases.map((p) => tr(p.layer, p.phase, num(p.count), num(dur(p.total_ms)))));
  const from = Math.min(...j.spans.map((s) => s.start_ms)), to = Math.max(...j.spans.map((s) => s.end_ms));
  drawTimeline(document.getElementById("job-chart"), j.spans, [j], from, to);
}

function token() { return document.getElementById("token").value || sessionStorage.getItem("cuzk-token") || ""; }

async function paramAction(action, circuitId) {
  const headers = { "Content-Type": "application/json" };
  const t = token();
  if (t) {
    headers.Authorization = "Bearer " + t;
    sessionStorage.setItem("cuzk-token", t);
  }
  const r = await fetch("/api/params/" + action, { method: "POST", headers, body: JSON.stringify({ circuit_id: circuitId }) });
  const body = await r.json().catch(() => ({}));
  const text = action + " " + circuitId + ": " + r.status + " " + (r.ok ? JSON.stringify(body) : body.error || r.statusText);
  message(text, !r.ok);
  document.getElementById("msg").dataset.status = String(r.status);
  refresh();
}

async function showParams() {
  const r = await getJSON("/api/params");
  document.getElementById("params-mode").textContent = r.admin ? "buttons need the admin token" : "read-only: the daemon has no admin token";
  fill(document.querySelector("#params-table tbody"), r.params.length ? r.params.map((p) => tr(
    p.circuit_id, p.tier, num(bytes(p.size_bytes)), num(p.ref_count), num(dur(p.idle_ms)),
    p.devices.map((d) => (d < 0 ? "cpu" : "gpu " + d)).join(", "),
    el("td", {}, el("button", { "data-action": "evict", "data-circuit": p.circuit_id, onclick: () => paramAction("evict", p.circuit_id) }, "Evict"))))
    : [tr(el("td", { colspan: 7, class: "muted" }, "no parameters loaded"))]);
}

async function showConfig() {
  const r = await getJSON("/api/config");
  fill(document.querySelector("#config-table tbody"), r.keys.map((k) => tr(k.key,
    typeof k.value === "string" ? k.value : JSON.stringify(k.value), el("td", { class: k.source === "default" ? "muted" : "" }, k.source))));
}

// ---- routing and refresh ----------------------------------------------------------------

function route() {
  const h = location.hash.replace(/^#/, "") || "overview";
  if (h.startsWith("job/")) return { view: "job", arg: decodeURIComponent(h.slice(4)) };
  return { view: ["overview", "timeline", "jobs", "params", "config"].includes(h) ? h : "overview" };
}

async function refresh() {
  clearTimeout(timer);
  const r = route();
  try {
    if (r.view === "overview") await showOverview();
    else if (r.view === "timeline") await showTimeline();
    else if (r.view === "jobs") await showJobs();
    else if (r.view === "job") await showJob(r.arg);
    else if (r.view === "params") await showParams();
    else if (r.view === "config") await showConfig();
    document.getElementById("live").textContent = "updated " + new Date().toLocaleTimeString();
    document.body.dataset.rendered = r.view;
  } catch (e) {
    document.getElementById("live").textContent = "update failed: " + e.message;
  }
  timer = setTimeout(refresh, POLL_MS);
}

function show() {
  const r = route();
  if (current !== r.view) message("");
  current = r.view;
  for (const s of document.querySelectorAll(".view")) s.hidden = s.id !== "view-" + r.view;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.dataset.view === r.view || (r.view === "job" && a.dataset.view === "jobs"));
  delete document.body.dataset.rendered;
  refresh();
}

window.addEventListener("hashchange", show);
document.getElementById("tl-seconds").addEventListener("change", refresh);
document.getElementById("jobs-kind").addEventListener("input", refresh);
document.getElementById("jobs-state").addEventListener("change", refresh);
document.getElementById("param-preload").addEventListener("click", () => {
  const id = document.getElementById("param-id").value.trim();
  if (id) paramAction("preload", id);
  else message("preload: enter a circuit id", true);
});
show();
