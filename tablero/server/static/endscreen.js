/* tablero table part: the end screen. Plain JavaScript, no build step.
 *
 * Tablero.parts.endScreen(payload, ctx) draws the panel that app.js puts in the decision column
 * once the game is over (beside the board on a wide screen, above it on a phone): the ranks
 * (shared places as the result gives them), the winner(s), where the points came from (the
 * game's score sheet), the score over time as an inline SVG chart, the record download, the
 * review picker and the rematch button. It never covers the table; it can be collapsed to one
 * line (S.endClosed, which app.js also sets when a review opens).
 *
 * Sheet and chart come from GET /api/games/{id}/summary?lang=xx (tablero/server/summary.py),
 * fetched once per table and language; the panel draws the ranks at once and the rest when the
 * answer is in (then it asks the table to redraw).
 */
"use strict";
(function () {
  const T = () => window.Tablero;
  const el = (...a) => T().util.el(...a);
  const t = (k, p) => T().util.t(k, p);
  const DASHES = ["", "7 3", "2 3", "9 3 2 3", "4 4", "1 2"];

  /* Summaries per "table id:language": {status: "loading" | "done" | "error", data}. */
  const summaries = {};
  /* Groups of the sheet the player opened or closed, per table: {label: true|false}. */
  const groupsOpen = {};

  function summary(ctx) {
    const lang = T().util.lang;
    const key = ctx.id + ":" + lang;
    let s = summaries[key];
    if (!s) {
      s = summaries[key] = { status: "loading", data: null };
      T().util.api("GET", "/api/games/" + encodeURIComponent(ctx.id) + "/summary?lang=" + lang)
        .then((data) => { s.status = "done"; s.data = data; })
        .catch(() => { s.status = "error"; })
        .then(() => ctx.draw());
    }
    return s;
  }

  function num(x) {
    const v = Math.round(x * 100) / 100;
    return v < 0 ? "−" + String(-v) : String(v);
  }

  function names(list) {
    const lang = T().util.lang;
    try { return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(list); }
    catch (e) { return list.join(", "); }
  }

  function chip(seat, withName) {
    return el("span", { class: "end-chip", style: "--seat:" + seat.colour },
      el("span", { class: "letter", "aria-hidden": withName ? "true" : null }, seat.letter),
      withName ? el("span", { class: "end-name" }, seat.name) : null);
  }

  function winnersLine(p) {
    const w = p.result.winners;
    if (!w.length) return t("end.no_winner");
    const who = names(w.map((i) => p.seats[i].name));
    return t(w.length === 1 ? "end.winner_one" : "end.winner_many", { names: who });
  }

  /* A score with its unit: the game's own word where its catalogue has one ("score.points":
   * Mafia Legend's "{n} VP"), else points. */
  function points(n) {
    const cat = (window.Tablero.ctx && window.Tablero.ctx.S.cat) || {};
    if (cat["score.points"]) return BoardKit.renderMessage(cat, [], "score.points", { n: num(n) });
    return t(n === 1 ? "end.points_one" : "end.points_other", { n: num(n) });
  }

  function ranks(p) {
    const r = p.result;
    const order = p.seats.map((_, i) => i).sort((a, b) => r.ranks[a] - r.ranks[b] || a - b);
    return el("ol", { class: "ranks" }, order.map((i) => el("li", {
      class: "seat-" + i + (r.winners.includes(i) ? " won" : "") + (i === p.viewer ? " me" : ""),
      style: "--seat:" + p.seats[i].colour, "data-seat": i,
    },
      el("span", { class: "place" }, r.ranks[i] + "."),
      chip(p.seats[i], true),
      el("span", { class: "score", "data-score": String(r.scores[i]) }, points(r.scores[i])))));
  }

  /* The score sheet: a column per seat, a row per source, groups that open and close, the total. */
  function sheetTable(p, sheet, ctx) {
    const n = p.seats.length;
    const open = groupsOpen[ctx.id] = groupsOpen[ctx.id] || {};
    const defaultOpen = sheet.rows.length <= 12;
    const head = el("tr", {}, el("th", { scope: "col", class: "src" }, t("end.source")),
      p.seats.map((s, i) => el("th", { scope: "col", class: "seat-col", "data-seat": i, title: s.name },
        chip(s, false), el("span", { class: "sr" }, s.name))));
    const cells = (values, tag) => values.map((v, i) => el(tag || "td", {
      class: "num" + (v === 0 ? " zero" : v < 0 ? " neg" : ""), "data-seat": i,
    }, num(v)));
    const table = el("table", { class: "sheet", id: "end-sheet" },
      el("caption", {}, t("end.sheet")), el("thead", {}, head));
    let body = null, group = null;
    for (const row of sheet.rows) {
      if (!body || row.group !== group) {
        group = row.group;
        body = el("tbody", { class: group === null ? "plain" : "grp" });
        if (group !== null) {
          const members = sheet.rows.filter((r) => r.group === group);
          const sub = Array.from({ length: n }, (_, i) => members.reduce((a, r) => a + r.values[i], 0));
          const isOpen = open[group] === undefined ? defaultOpen : open[group];
          const g = group;
          body.classList.toggle("open", isOpen);
          body.append(el("tr", { class: "grp-head" },
            el("th", { scope: "rowgroup", class: "src" }, el("button", {
              type: "button", class: "grp-toggle", "aria-expanded": String(isOpen),
              onclick: () => { open[g] = !isOpen; ctx.draw(); },
            }, el("span", { class: "caret", "aria-hidden": "true" }, isOpen ? "▾" : "▸"), " ", group)),
            cells(sub)));
        }
        table.append(body);
      }
      if (row.group === null || body.classList.contains("open")) {
        body.append(el("tr", { class: "row" }, el("th", { scope: "row", class: "src" }, row.label), cells(row.values)));
      }
    }
    table.append(el("tfoot", {}, el("tr", { class: "total" },
      el("th", { scope: "row", class: "src" }, sheet.total.label), cells(sheet.total.values))));
    return el("div", { class: "sheet-wrap" }, table);
  }

  // ------------------------------------------------------------------ the chart
  const svg = BoardKit.svg;  // the kit's SVG element maker

  function niceStep(range, most) {
    const raw = range / Math.max(1, most);
    const mag = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
    for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= raw) return Math.max(1, m * mag);
    return Math.max(1, 10 * mag);
  }

  /* Score over time: one step line per seat (seat colour, a dash pattern and the seat's letter at
   * its end, so colour is never the only cue), rounds or months marked on the x axis. */
  function chart(p, series, entries) {
    const W = 300, H = 200, L = 34, R = 28, TOP = 10, B = 36, GAP = 15;
    const n = p.seats.length;
    const pts = series.points.length ? series.points : [[0, Array(n).fill(0)]];
    const total = Math.max(1, entries, pts[pts.length - 1][0]);
    let lo = 0, hi = 1;
    for (const [, s] of pts) for (const v of s) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    const step = niceStep(hi - lo, 4);
    lo = Math.floor(lo / step) * step; hi = Math.ceil(hi / step) * step;
    const x = (k) => L + (W - L - R) * (k / total);
    const y = (v) => TOP + (H - TOP - B) * (1 - (v - lo) / (hi - lo || 1));
    const uid = "end-chart-" + Math.random().toString(36).slice(2, 8);
    const finals = p.seats.map((s, i) => s.letter + " " + s.name + " " + num(p.result.scores[i])).join(", ");
    const root = svg("svg", {
      class: "chart", id: "end-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
      "aria-labelledby": uid + "-t " + uid + "-d", preserveAspectRatio: "xMidYMid meet",
    },
      svg("title", { id: uid + "-t" }, t("end.chart")),
      svg("desc", { id: uid + "-d" }, t("end.chart_desc", { scores: finals })));
    const grid = svg("g", { class: "grid" });
    for (let v = lo; v <= hi + 1e-9; v += step) {
      grid.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "zero" : null }),
        svg("text", { x: L - 4, y: y(v) + 3.5, "text-anchor": "end", class: "tick" }, num(v)));
    }
    const secs = series.sections || [];
    const every = Math.max(1, Math.ceil(secs.length / 10));
    let lastLabel = -Infinity;  // short last rounds crowd the axis: a number only where it has room
    secs.forEach((sec, k) => {
      grid.append(svg("line", { x1: x(sec.at), x2: x(sec.at), y1: TOP, y2: H - B, class: "section" },
        svg("title", {}, sec.text)));
      if (k % every === 0 && x(sec.at) - lastLabel >= 16) {
        lastLabel = x(sec.at);
        grid.append(svg("text", { x: x(sec.at), y: H - B + 13, "text-anchor": "middle", class: "tick" }, String(sec.n)));
      }
    });
    if (!secs.length) {
      grid.append(svg("text", { x: x(0), y: H - B + 13, "text-anchor": "start", class: "tick" }, "0"),
        svg("text", { x: x(total), y: H - B + 13, "text-anchor": "end", class: "tick" }, String(total)));
    }
    const unit = series.unit === "round" ? "end.axis_round" : series.unit === "month" ? "end.axis_month" : "end.axis_moves";
    root.append(grid,
      svg("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis" }),
      svg("line", { x1: L, x2: L, y1: TOP, y2: H - B, class: "axis" }),
      svg("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "axis-label" }, t(unit)),
      svg("text", { x: 10, y: (TOP + H - B) / 2, "text-anchor": "middle", class: "axis-label",
        transform: `rotate(-90 10 ${(TOP + H - B) / 2})` }, t(series.unit === "month" ? "end.axis_vp" : "end.axis_points")));
    // the letters at the lines' ends, pushed apart where lines end close together
    const ends = p.seats.map((_, i) => ({ i, y: y(pts[pts.length - 1][1][i]) })).sort((a, b) => a.y - b.y);
    for (let k = 1; k < ends.length; k++) ends[k].y = Math.max(ends[k].y, ends[k - 1].y + GAP);
    const over = ends.length ? ends[ends.length - 1].y - (H - B) : 0;
    if (over > 0) for (const e of ends) e.y -= over;
    for (let k = ends.length - 2; k >= 0; k--) ends[k].y = Math.min(ends[k].y, ends[k + 1].y - GAP);
    const endY = {};
    for (const e of ends) endY[e.i] = e.y;
    for (let i = 0; i < n; i++) {
      let d = `M${x(pts[0][0]).toFixed(1)},${y(pts[0][1][i]).toFixed(1)}`;
      for (let k = 1; k < pts.length; k++) d += `H${x(pts[k][0]).toFixed(1)}V${y(pts[k][1][i]).toFixed(1)}`;
      d += `H${x(total).toFixed(1)}`;
      const s = p.seats[i];
      const lastY = y(pts[pts.length - 1][1][i]);
      root.append(svg("g", { class: "series", "data-seat": i, style: "--seat:" + s.colour },
        svg("title", {}, s.letter + " · " + s.name + ": " + num(p.result.scores[i])),
        svg("path", { d, class: "line", "stroke-dasharray": DASHES[i % DASHES.length] || null }),
        svg("line", { x1: x(total), x2: W - R + 8, y1: lastY, y2: endY[i], class: "lead" }),
        svg("circle", { cx: W - R + 15, cy: endY[i], r: 7, class: "end-dot" }),
        svg("text", { x: W - R + 15, y: endY[i] + 3.5, "text-anchor": "middle", class: "end-letter" }, s.letter)));
    }
    return el("figure", { class: "chart-box" }, root);
  }

  // ------------------------------------------------------------------ the panel
  function endScreen(p, ctx) {
    const S = ctx.S;
    const collapsed = !!S.endClosed;
    const toggle = el("button", {
      type: "button", class: "link end-toggle", id: "end-toggle", "aria-expanded": String(!collapsed),
      "aria-controls": "end-body",
      onclick: () => { S.endClosed = !collapsed; ctx.draw(); },
    }, collapsed ? t("end.expand") : t("end.collapse"));
    const box = el("section", { class: "endscreen card" + (collapsed ? " collapsed" : ""), id: "end",
      "aria-labelledby": "end-title" },
      el("div", { class: "end-head" }, el("h2", { id: "end-title" }, t("end.heading")), toggle),
      el("p", { class: "winners", id: "end-winners" }, winnersLine(p)));
    if (collapsed) return box;
    const body = el("div", { class: "end-body", id: "end-body" }, ranks(p));
    const s = summary(ctx);
    if (s.status === "loading") body.append(el("p", { class: "muted", role: "status" }, t("end.sheet_loading")));
    else if (s.status === "error") body.append(el("p", { class: "error" }, t("end.sheet_error")));
    else {
      if (s.data.sheet) body.append(sheetTable(p, s.data.sheet, ctx));
      else body.append(el("p", { class: "muted" }, t("end.sheet_none")));
      body.append(chart(p, s.data.series, s.data.entries));
    }
    const tools = el("div", { class: "end-tools" },
      el("a", { id: "end-record", href: "/api/games/" + encodeURIComponent(ctx.id) + "/record",
        download: "tablero-" + ctx.id + ".json" }, t("end.download")),
      window.Tablero.replay ? el("button", {  // the replay from the start, as this seat saw it
        id: "end-replay", type: "button",
        onclick: () => window.Tablero.replay.open(0, p.viewer === null ? undefined : p.viewer),
      }, t("end.replay")) : null,
      ctx.data.tokens && ctx.data.tokens.length && ctx.rematch
        ? el("button", { id: "rematch", type: "button", class: "primary", onclick: () => ctx.rematch() }, t("end.again"))
        : null);
    body.append(ctx.reviewPicker ? ctx.reviewPicker(p, "end") : null, tools);
    box.append(body);
    return box;
  }

  window.Tablero.parts.endScreen = endScreen;
})();
