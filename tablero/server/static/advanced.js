/* tablero lobby and table part: rules data overrides. Plain JavaScript, no build step.
 *
 * Tablero.parts.advanced gives
 *   section(game)   the new-game form's "Advanced: rules data" disclosure (closed at first): the
 *                   game's overridable values (/api/meta's `data`: label, the usual value as the
 *                   placeholder, the range), a filter box when there are many, a check of
 *                   each field as the player types (the message next to the field);
 *   collect()       the changed values for POST /api/games `options.data` ({ok, data, errors});
 *   refused(msg)    the server's game/bad_data message: a message next to each field it names,
 *                   in the page's language (the spec's `rule` for a game's whole-value check;
 *                   refusal(msg) reads the names and the reason);
 *   changes(list)   "Changed rules data: Beginner goal: 40 (usual 50)" for the join page and the
 *                   table (the invitation's `data`, the update's `data_changes`).
 * The fields take the same text as `--data NAME=VALUE` on the command line: `40`, `6,5,5,4`.
 * What a player typed is kept per game while the lobby is open (a game or language switch
 * redraws the form).
 */
"use strict";
(function () {
  const T = () => window.Tablero;
  const el = (...a) => T().util.el(...a);
  const t = (k, p) => T().util.t(k, p);
  const FILTER_FROM = 8;  // more values than this: a filter box

  const typed = {};  // per game id: {NAME: text}
  const timers = {};  // per NAME: the pending check of a field being typed in
  const A = { open: false, filter: "", only: false, game: null, specs: [], box: null };

  const safeId = (name) => "adv-" + name.replace(/[^A-Za-z0-9_-]/g, "-");

  function rangeText(s) {
    if (s.low !== null && s.high !== null) return t("adv.range", { low: s.low, high: s.high });
    if (s.low !== null) return t("adv.range_low", { low: s.low });
    if (s.high !== null) return t("adv.range_high", { high: s.high });
    return t("adv.any");
  }
  function count(s) { return s.length !== null ? s.length : (Array.isArray(s.default) ? s.default.length : 1); }
  function hintText(s) {
    const range = rangeText(s);
    const what = s.kind === "int" ? t("adv.hint_int", { range })
      : s.kind === "ints" ? t("adv.hint_ints", { n: count(s), range }) : t("adv.hint_set", { range });
    return what + " · " + t("adv.usual", { value: s.text });
  }

  /* A field's text checked as the server checks it (DataSpec.parse, less a game's own whole-value
   * check): {value} (undefined: empty, the usual value) or {error}. */
  function check(s, text) {
    const raw = String(text || "").trim();
    if (raw === "") return { value: undefined };
    const parts = raw.split(",").map(x => x.trim());
    const nums = [];
    for (const p of parts) {
      if (p === "") return { error: t("adv.err_gap") };  // "5,4," or "5,,4"
      if (!/^[+-]?\d+$/.test(p)) return { error: t("adv.err_number", { text: p }) };
      nums.push(Number(p));
    }
    if (s.kind === "int" && nums.length !== 1) return { error: t("adv.err_number", { text: raw }) };
    for (const v of nums) {
      if ((s.low !== null && v < s.low) || (s.high !== null && v > s.high)) {
        return { error: t("adv.err_range", { value: v, range: rangeText(s) }) };
      }
    }
    if (s.kind === "int") return { value: nums[0] };
    if (s.kind === "ints") {
      const n = count(s);
      if (nums.length !== n) return { error: t("adv.err_count", { n, got: nums.length }) };
      return { value: nums };
    }
    if (!nums.length) return { error: t("adv.err_empty") };
    return { value: Array.from(new Set(nums)).sort((a, b) => a - b) };
  }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function isChange(s, value) {
    if (value === undefined) return false;
    const usual = s.kind === "set" ? [...s.default].sort((a, b) => a - b) : s.default;
    return !same(value, usual);
  }

  function showError(name, message) {
    const box = A.box;
    if (!box) return;
    const row = box.querySelector(`.adv-row[data-name="${CSS.escape(name)}"]`);
    if (!row) return;
    const err = row.querySelector(".adv-error"), input = row.querySelector(".adv-input");
    err.textContent = message || "";
    err.hidden = !message;
    row.classList.toggle("invalid", !!message);
    if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  }
  function validate(s) {
    const text = (typed[A.game] || {})[s.name];
    const r = check(s, text);
    showError(s.name, r.error || "");
    return r;
  }

  function changedCount() {
    const mine = typed[A.game] || {};
    return A.specs.filter(s => { const r = check(s, mine[s.name]); return !r.error && isChange(s, r.value); }).length;
  }
  function refreshCount() {
    const c = A.box && A.box.querySelector(".adv-count");
    if (!c) return;
    const n = changedCount();
    c.textContent = n ? t("adv.changed_count", { n }) : "";
    c.hidden = !n;
    const reset = A.box.querySelector("#adv-reset-all");
    if (reset) reset.hidden = !Object.values(typed[A.game] || {}).some(x => String(x).trim() !== "");
  }

  function applyFilter() {
    if (!A.box) return;
    const q = A.filter.trim().toLowerCase(), mine = typed[A.game] || {};
    let shown = 0;
    for (const row of A.box.querySelectorAll(".adv-row")) {
      const hit = (!q || row.dataset.search.includes(q)) && (!A.only || String(mine[row.dataset.name] || "").trim() !== "");
      row.hidden = !hit;
      if (hit) shown++;
    }
    const info = A.box.querySelector("#adv-shown");
    if (info) info.textContent = q || A.only ? (shown ? t("adv.shown", { n: shown, total: A.specs.length }) : t("adv.no_match")) : "";
  }

  function row(s) {
    const id = safeId(s.name), mine = typed[A.game] || (typed[A.game] = {});
    const input = el("input", {
      id, class: "adv-input", "data-name": s.name, placeholder: s.text, value: mine[s.name] || "",
      inputmode: s.kind === "int" ? "numeric" : null, autocomplete: "off", spellcheck: "false",
      "aria-describedby": id + "-hint " + id + "-err",
      oninput: (e) => {
        mine[s.name] = e.target.value;
        clearTimeout(timers[s.name]);
        // a message already shown follows every key (gone once fixed); a new one waits for a pause in
        // typing, so "4" on the way to "40" is no error, and no message appears under the pointer on its
        // way to "Create" (the button would move away between press and release)
        if (e.target.closest(".adv-row").classList.contains("invalid")) validate(s);
        else timers[s.name] = setTimeout(() => validate(s), 700);
        refreshCount();
      },
    });
    const search = [s.label, s.name, s.about || ""].join(" ").toLowerCase();
    return el("li", { class: "adv-row", "data-name": s.name, "data-search": search },
      el("label", { class: "adv-label", for: id }, s.label,
        s.label !== s.name ? el("span", { class: "adv-name" }, s.name) : null),
      input,
      el("span", { class: "adv-hint muted", id: id + "-hint" }, hintText(s),
        el("span", { class: "adv-source" }, t(s.source === "R" ? "adv.source_R" : "adv.source_single"))),
      s.about ? el("p", { class: "adv-about muted" }, s.about) : null,
      el("p", { class: "adv-error error", id: id + "-err", role: "alert", hidden: true }));
  }

  /* The disclosure for one game of /api/meta (its `data`). */
  function section(game) {
    A.game = game.id;
    A.specs = game.data || [];
    const panel = el("div", { class: "adv-panel", id: "adv-panel", hidden: !A.open });
    const toggle = el("button", {
      type: "button", class: "adv-toggle", id: "adv-toggle", "aria-expanded": String(A.open), "aria-controls": "adv-panel",
      onclick: () => { setOpen(panel.hidden); },
    }, el("span", { class: "adv-title" }, t("adv.toggle")), el("span", { class: "adv-count", hidden: true }));
    const box = el("div", { class: "advanced" + (A.open ? " open" : ""), id: "advanced", "data-game": game.id }, toggle, panel);
    A.box = box;
    if (!A.specs.length) {
      panel.append(el("p", { class: "muted" }, t("adv.none")));
      return box;
    }
    panel.append(el("p", { class: "adv-intro muted" }, t("adv.intro")));
    if (A.specs.length > FILTER_FROM) {
      panel.append(el("div", { class: "adv-filter" },
        el("label", { for: "adv-filter" }, t("adv.filter")),
        el("input", { type: "search", id: "adv-filter", value: A.filter, placeholder: t("adv.filter_placeholder"),
          autocomplete: "off", oninput: (e) => { A.filter = e.target.value; applyFilter(); } }),
        el("label", { class: "adv-only" }, el("input", { type: "checkbox", id: "adv-only", checked: A.only,
          onchange: (e) => { A.only = e.target.checked; applyFilter(); } }), t("adv.only")),
        el("span", { class: "muted", id: "adv-shown", role: "status" })));
    }
    panel.append(el("ul", { class: "adv-list", id: "adv-list" }, A.specs.map(row)),
      el("button", { type: "button", class: "link", id: "adv-reset-all", hidden: true, onclick: () => {
        typed[A.game] = {};
        for (const i of box.querySelectorAll(".adv-input")) i.value = "";
        for (const s of A.specs) showError(s.name, "");
        refreshCount();
      } }, t("adv.reset_all")));
    for (const s of A.specs) if (((typed[A.game] || {})[s.name] || "").trim()) validate(s);
    applyFilter();
    refreshCount();
    return box;
  }
  function setOpen(on) {
    A.open = on;
    if (!A.box) return;
    const panel = A.box.querySelector(".adv-panel"), toggle = A.box.querySelector(".adv-toggle");
    panel.hidden = !on;
    toggle.setAttribute("aria-expanded", String(on));
    A.box.classList.toggle("open", on);
  }

  /* The changed values of the game shown last ({NAME: number | [numbers]}); a field in error
   * opens the section and shows its message (ok false). */
  function collect() {
    const data = {}, errors = {};
    for (const s of A.specs) {
      clearTimeout(timers[s.name]);
      const r = validate(s);
      if (r.error) errors[s.name] = r.error;
      else if (isChange(s, r.value)) data[s.name] = r.value;
    }
    const bad = Object.keys(errors);
    if (bad.length) {
      reveal();
      const first = A.box && A.box.querySelector(".adv-row.invalid .adv-input"); if (first) first.focus();
    }
    return { ok: !bad.length, data, errors };
  }
  /* Open the section with every field in view (no filter), to show a field in error. */
  function reveal() {
    setOpen(true);
    A.filter = ""; A.only = false;
    const f = A.box && A.box.querySelector("#adv-filter"); if (f) f.value = "";
    const o = A.box && A.box.querySelector("#adv-only"); if (o) o.checked = false;
    applyFilter();
  }

  /* The values a refusal (DataError) names and its reason: the core's messages begin "data NAME: …",
   * "data NAME=[1, 2]: …", "data NAME is …", "data NAME takes …", a check of several values
   * "data NAME1, NAME2: …". {names, detail} (names [] when the message names no field). */
  function refusal(message) {
    const msg = String(message || "");
    const m = /^data (.+?)(=|: | is | takes )/.exec(msg);
    if (!m) return { names: [], detail: msg };
    const known = new Set(A.specs.map(s => s.name));
    const names = m[1].split(", ").filter(n => known.has(n));
    const colon = msg.indexOf(": ", 5 + m[1].length);  // the reason follows the names (and a value)
    return { names, detail: colon >= 0 ? msg.slice(colon + 2) : msg };
  }

  /* The server's refusal (game/bad_data): a message next to each field it names, in the page's
   * language — the field's own check where it finds the fault (kind, count, range), else the
   * game's rule (the spec's `rule`, the catalogue's words for a whole-value check such as
   * "descending"; the server's English reason where the game has none). True when a field was found. */
  function refused(message) {
    const { names, detail } = refusal(message);
    if (!names.length) return false;
    reveal();
    for (const name of names) {
      const s = A.specs.find(x => x.name === name);
      const own = check(s, (typed[A.game] || {})[name]).error;
      showError(name, own || t("adv.err_rules", { detail: s.rule || detail }));
    }
    const input = A.box && A.box.querySelector(`.adv-input[data-name="${CSS.escape(names[0])}"]`);
    if (input) input.focus();
    return true;
  }

  /* "Changed rules data": [{name, label, value, usual}] as a small box (null when none). */
  function changes(list, opts) {
    if (!list || !list.length) return null;
    const o = opts || {};
    return el("section", { class: "data-changes" + (o.cls ? " " + o.cls : ""), id: o.id || "data-changes",
      "aria-label": t("adv.changed") },
    el(o.heading || "h3", {}, t("adv.changed")),
    o.note ? el("p", { class: "muted" }, t("adv.changed_note")) : null,
    el("ul", {}, list.map(c => el("li", { "data-name": c.name }, t("adv.changed_item", c)))));
  }

  T().parts.advanced = { section, collect, refused, refusal, changes, check };
})();
