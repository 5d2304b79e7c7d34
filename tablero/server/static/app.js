/* tablero web client: lobby, join page and table. Plain JavaScript, no build step.
 *
 * The table speaks to the server over one WebSocket. Every update it receives is one
 * viewer's payload (built by the server from that seat's observation; the wire shape is in
 * tablero/server/payload.py). A device may hold several seats (hot-seat): it then shows one
 * seat at a time, with a hand-over screen that hides the previous player's table before the
 * next player looks. The game's board.js draws the board with a kit from boardkit.js.
 */
"use strict";
(function () {
  const LANGS = ["en", "de"];
  // An address's ?lang= (the lobby's, a rules or tutorial link's) wins and is kept for the next pages.
  const urlLang = new URLSearchParams(location.search).get("lang");
  if (LANGS.includes(urlLang)) localStorage.setItem("tablero:lang", urlLang);
  let lang = localStorage.getItem("tablero:lang") ||
    ((navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en");
  if (!LANGS.includes(lang)) lang = "en";
  let UI = {};

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function t(key, params) {
    let s = UI[key] || key;
    for (const [k, v] of Object.entries(params || {})) s = s.split("{" + k + "}").join(String(v));
    return s;
  }
  /* A bot's name as people read it: the levels in words ("medium" → "mittel"), others as they are. */
  function botLabel(name) { return UI["bot." + name] || name; }

  async function api(method, url, body) {
    const r = await fetch(url, {
      method, headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) {
      const err = new Error((data.error && data.error.message) || r.statusText);
      err.code = data.error && data.error.code;  // the server's stable slug (game/bad_data, ...)
      throw err;
    }
    return data;
  }

  async function loadUI() {
    UI = await api("GET", "/api/i18n/" + lang);
    document.documentElement.lang = lang;
  }

  function langSwitch(onChange) {
    const nav = el("nav", { class: "langs", "aria-label": "Language / Sprache" });
    for (const l of LANGS) {
      nav.append(el("button", {
        class: l === lang ? "lang active" : "lang", type: "button", "aria-pressed": String(l === lang),
        onclick: async () => { lang = l; localStorage.setItem("tablero:lang", l); await loadUI(); onChange(); },
      }, l === "de" ? "Deutsch" : "English"));
    }
    return nav;
  }

  const CONFIRM_MODES = ["always", "final", "never"];

  // ---------------------------------------------------------------- stored seats
  /* What this device holds of a table, in localStorage only (never in an address): its seats'
   * tokens, the creator's admin key, and the invites the creator has not handed out yet
   * ({seat: invite}). A claimed seat survives reloads on this device; another device opening
   * the table's address watches as a spectator. */
  function saved(id) {
    const empty = { tokens: [], admin: null, invites: {} };
    try { return Object.assign(empty, JSON.parse(localStorage.getItem("tablero:game:" + id)) || {}); }
    catch (e) { return empty; }
  }
  function save(id, data) { localStorage.setItem("tablero:game:" + id, JSON.stringify(data)); }
  /* The table's address: the same for everybody (players, spectators); it carries no secret. */
  function tableLink(id) { return "/game/" + id; }
  function myGames() {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith("tablero:game:")) {
        const d = saved(k.slice(13));
        if (d.tokens.length || d.admin) out.push(k.slice(13));
      }
    }
    return out;
  }
  /* Copy a link; the button says whether it worked (a non-secure page has no clipboard API:
   * then the old way through a selected text field). */
  async function copyText(text, button) {
    let ok = false;
    try { await navigator.clipboard.writeText(text); ok = true; } catch (e) {
      const ta = el("textarea", { class: "sr", readonly: true }, text);
      document.body.append(ta); ta.select();
      try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
      ta.remove();
    }
    if (button) {
      const was = button.dataset.label || button.textContent;
      button.dataset.label = was;
      button.textContent = ok ? t("lobby.copied") : t("lobby.copy_failed");
      button.classList.toggle("copied", ok);
      setTimeout(() => { button.textContent = was; button.classList.remove("copied"); }, 1800);
    }
    return ok;
  }
  function inviteLink(id, invite) { return location.origin + "/join/" + id + "/" + invite; }
  function myName() { return localStorage.getItem("tablero:name") || ""; }

  // ---------------------------------------------------------------- lobby
  async function lobby() {
    await loadUI();
    let meta = null, metaLang = null;
    const draw = async () => {
      if (metaLang !== lang) { meta = await api("GET", "/api/meta?lang=" + lang); metaLang = lang; }
      document.getElementById("langs").replaceWith(Object.assign(langSwitch(draw), { id: "langs" }));
      document.querySelector(".intro p").textContent = t("lobby.intro");
      for (const a of document.querySelectorAll("a.rules-link")) {  // each game's rules, in this language
        a.textContent = t("rules.link"); a.href = "/rules/" + a.closest("[data-game]").dataset.game + "?lang=" + lang;
      }
      for (const a of document.querySelectorAll("a.tutorial-link")) {  // each game's tutorial (static/tutorial.js)
        a.textContent = t("tutorial.link"); a.title = t("tutorial.link_title");
        a.href = "/tutorial/" + a.closest("[data-game]").dataset.game + "?lang=" + lang;
      }
      for (const li of document.querySelectorAll(".titles li[data-game]")) {  // "2–4 Spieler"
        const g = meta.games.find(x => x.id === li.dataset.game), span = li.querySelector(".muted");
        if (g && span) span.textContent = g.min_players + "–" + g.max_players + " " + t("lobby.players");
      }
      document.querySelector("#create h2").textContent = t("lobby.create");
      document.querySelectorAll(".card h2")[1].textContent = t("lobby.games");
      drawForm(meta);
      drawFilters(meta);
      listGames();
    };
    await draw();
    setInterval(listGames, 5000);
    setInterval(() => {
      for (const e of document.querySelectorAll("#game-list time[data-t]")) e.textContent = ago(Number(e.dataset.t));
    }, 30000);
  }

  /* One option of the create form, as its game's catalogue words it (label, help, choices). */
  function optionField(o, seatLabels) {
    const id = "opt-" + o.name;
    const label = (c) => (o.choice_labels || {})[c] || c;
    let input;
    if (o.kind === "bool") {
      input = el("input", { type: "checkbox", name: "opt:" + o.name, id, checked: o.default });
    } else if (o.kind === "choice") {
      input = el("select", { name: "opt:" + o.name, id },
        o.choices.map(c => el("option", { value: c, selected: String(o.default) === c }, label(c))));
    } else if (o.kind === "seat") {  // who starts: random or a seat (by its letter and name)
      input = el("select", { name: "opt:" + o.name, id, class: "seat-option" },
        el("option", { value: "random", selected: o.default === "random" }, label("random")),
        seatLabels.map((s, i) => el("option", { value: String(i), selected: o.default === i }, s)));
    } else if (o.kind === "map") {  // one number per key (Don Carlo: points per country)
      input = el("div", { class: "opt-map", id, role: "group" }, o.keys.map(k => el("label", { class: "opt-key" },
        el("span", {}, k.label),
        el("input", { type: "number", min: "0", step: "1", value: String(k.default), id: id + "-" + k.key,
          "data-key": k.key, "data-default": String(k.default) }))));
    } else {  // free text: the values the catalogue names, or anything else in a text field
      const text = el("input", { id: id + "-text", class: "opt-text", placeholder: o.help, hidden: true,
        "aria-label": o.label });
      input = el("span", { class: "opt-free" },
        el("select", {
          name: "opt:" + o.name, id, onchange: (e) => { text.hidden = e.target.value !== "\u0000"; },
        }, o.choices.map(c => el("option", { value: c, selected: String(o.default) === c }, label(c))),
          el("option", { value: "\u0000" }, t("lobby.custom"))),
        text);
    }
    const head = o.kind === "map" ? el("span", { class: "opt-label" }, o.label)
      : el("label", { class: "opt-label", for: id }, o.label);
    return el("div", { class: "opt opt-kind-" + o.kind, "data-option": o.name },
      o.kind === "bool" ? el("label", { class: "check" }, input, el("span", { class: "opt-label" }, o.label)) : head,
      o.kind === "bool" ? null : input,
      o.help ? el("p", { class: "opt-help muted" }, o.help) : null);
  }

  /* The value of one option field, or undefined when it is the game's default. */
  function optionValue(o) {
    const input = document.getElementById("opt-" + o.name);
    if (!input) return undefined;
    if (o.kind === "bool") return input.checked === o.default ? undefined : input.checked;
    if (o.kind === "map") {
      const out = {};
      for (const f of input.querySelectorAll("input[data-key]")) {
        if (f.value !== "" && f.value !== f.dataset.default) out[f.dataset.key] = Number(f.value);
      }
      return Object.keys(out).length ? out : undefined;
    }
    let v = input.value;
    if (v === "\u0000") v = document.getElementById("opt-" + o.name + "-text").value.trim();
    if (o.kind === "seat" && /^\d+$/.test(v)) return Number(v) === o.default ? undefined : Number(v);
    return v === "" || v === String(o.default) ? undefined : v;
  }

  function botChoice(b) {
    const about = UI["bot." + b + ".about"];
    return t("seat.bot", { bot: botLabel(b) }) + (about ? " — " + about : "");
  }

  function drawForm(meta) {
    const form = document.getElementById("create-form");
    form.replaceChildren();
    const gameSel = el("select", { id: "f-game", name: "game" },
      meta.games.map(g => el("option", { value: g.id }, g.title)));
    const playersSel = el("select", { id: "f-players", name: "players" });
    const opts = el("div", { class: "options" });
    const seats = el("div", { class: "seats" });
    const clock = el("input", { id: "f-clock", type: "number", min: "0", step: "5", value: "0" });
    const away = el("input", { id: "f-away", type: "number", min: "0", step: "10", value: "60" });
    const hints = el("input", { id: "f-hints", type: "checkbox" });
    const standIn = el("select", { id: "f-standin" });
    const chatSel = el("select", { id: "f-chat" }, ["players", "all", "off"].map(m => el("option", { value: m }, t("chat.mode." + m))));
    const game = () => meta.games.find(g => g.id === gameSel.value);
    const adv = window.Tablero.parts.advanced;  // advanced.js: the game's rules data to change
    const advSlot = el("div", { class: "advanced-slot" });
    const fillAdvanced = () => { if (adv) advSlot.replaceChildren(adv.section(game())); };
    const letter = (i) => String.fromCharCode(65 + i);
    const seatLabels = () => Array.from({ length: Number(playersSel.value) }, (_, i) => {
      const f = document.getElementById("f-name-" + i);
      return letter(i) + (f && f.value.trim() ? " · " + f.value.trim() : "");
    });
    function fillOptions() {
      const keep = {};  // what the player already chose stays when the seats change
      for (const o of game().options) keep[o.name] = optionValue(o);
      opts.replaceChildren(...game().options.map(o => optionField(o, seatLabels())));
      for (const o of game().options) {
        const v = keep[o.name], input = document.getElementById("opt-" + o.name);
        if (v === undefined || !input) continue;
        if (o.kind === "map") {
          for (const [k, x] of Object.entries(v)) {
            const f = document.getElementById("opt-" + o.name + "-" + k); if (f) f.value = String(x);
          }
        } else if (o.kind === "bool") input.checked = v;
        else if ([...input.options].some(x => x.value === String(v))) input.value = String(v);
      }
    }
    function fillPlayers() {
      const g = game();
      playersSel.replaceChildren(...Array.from({ length: g.max_players - g.min_players + 1 },
        (_, i) => el("option", { value: g.min_players + i }, String(g.min_players + i))));
      playersSel.value = String(Math.max(g.min_players, Math.min(g.max_players, 3)));
      opts.replaceChildren();
      fillSeats();
    }
    function fillSeats() {
      const g = game();
      const n = Number(playersSel.value);
      const kinds = [["you", t("seat.you")], ["local", t("seat.local")], ["person", t("seat.person")]]
        .concat(g.bots.map(b => ["bot:" + b, botChoice(b)]));
      const dflt = g.bots.includes(g.default_bot) ? g.default_bot : g.bots[0];
      seats.replaceChildren(...Array.from({ length: n }, (_, i) => {
        const kind = el("select", { name: "kind" + i, id: "f-kind-" + i, "aria-label": t("seat.kind", { n: i + 1 }) },
          kinds.map(([v, label]) => el("option", { value: v, selected: i === 0 ? v === "you" : v === "bot:" + dflt }, label)));
        const name = el("input", { name: "name" + i, id: "f-name-" + i, maxlength: "24", "aria-label": t("seat.name"),
          value: i === 0 ? myName() : "", oninput: refreshSeatOption });
        const hint = () => {
          name.placeholder = kind.value === "person" ? t("lobby.name_person")
            : kind.value.startsWith("bot:") ? "Bot " + letter(i) : t("seat.unnamed", { letter: letter(i) });
        };
        kind.addEventListener("change", hint);
        hint();
        return el("div", { class: "seat-row" }, el("span", { class: "seat-chip seat-" + i }, letter(i)), kind, name);
      }));
      fillOptions();
    }
    function refreshSeatOption() {
      for (const sel of opts.querySelectorAll("select.seat-option")) {
        const labels = seatLabels();
        for (const op of sel.options) if (/^\d+$/.test(op.value)) op.textContent = labels[Number(op.value)];
      }
    }
    function fillStandIn() {
      const g = game();
      const pick = g.bots.includes("greedy") ? "greedy" : g.bots[0];
      standIn.replaceChildren(...g.bots.map(b => el("option", { value: b, selected: b === pick }, botChoice(b))));
    }
    gameSel.addEventListener("change", fillStandIn);
    gameSel.addEventListener("change", fillPlayers);
    gameSel.addEventListener("change", fillAdvanced);
    playersSel.addEventListener("change", fillSeats);
    form.append(
      el("label", {}, el("span", {}, t("lobby.game")), gameSel),
      el("label", {}, el("span", {}, t("lobby.player_count")), playersSel),
      el("fieldset", {}, el("legend", {}, t("lobby.seats")), seats),
      el("fieldset", {}, el("legend", {}, t("lobby.options")), opts),
      el("label", { class: "check" }, hints, el("span", {}, t("lobby.hints"))),
      el("details", {}, el("summary", {}, t("lobby.more")),
        el("label", {}, el("span", {}, t("lobby.clock")), clock),
        el("label", {}, el("span", {}, t("lobby.stand_in")), standIn),
        el("label", {}, el("span", {}, t("lobby.away")), away),
        el("label", { title: t("chat.setting_help") }, el("span", {}, t("chat.setting")), chatSel)),
      advSlot,
      el("button", { type: "submit", id: "f-create", class: "primary" }, t("lobby.start")),
      el("p", { class: "error", id: "f-error", role: "alert" }));
    fillStandIn();
    fillPlayers();
    fillAdvanced();
    form.oninput = () => { document.getElementById("f-error").textContent = ""; };  // an error is stale once edited
    form.onsubmit = async (ev) => {
      ev.preventDefault();
      const g = game();
      const options = {};
      for (const o of g.options) {
        const v = optionValue(o);
        if (v !== undefined) options[o.name] = v;  // only what the player changed
      }
      if (adv) {  // the rules data the player changed (checked here first, then by the server)
        const d = adv.collect();
        if (!d.ok) { document.getElementById("f-error").textContent = t("adv.err_form"); return; }
        if (Object.keys(d.data).length) options.data = d.data;
      }
      const seatList = [];
      for (let i = 0; i < Number(playersSel.value); i++) {
        const k = document.getElementById("f-kind-" + i).value;
        let name = document.getElementById("f-name-" + i).value.trim();
        if (!name && (k === "you" || k === "local")) name = t("seat.unnamed", { letter: letter(i) });
        if (i === 0 && k === "you" && name) localStorage.setItem("tablero:name", name);
        seatList.push(k.startsWith("bot:") ? { kind: "bot", bot: k.slice(4), name } : { kind: k, name });
      }
      try {
        const res = await api("POST", "/api/games", {
          game: g.id, options, seats: seatList,
          move_seconds: Number(clock.value) || 0, away_seconds: Number(away.value) || 0,
          hints: hints.checked, stand_in: standIn.value, chat: chatSel.value,
        });
        const data = { tokens: Object.values(res.tokens), admin: res.admin, invites: res.invites };
        save(res.id, data);
        if (!Object.keys(res.invites).length) { location.href = tableLink(res.id); return; }
        createdBox(res.id, res.invites);
      } catch (e) {
        // refused rules data: next to the fields it names (in the page's language) and pointed to here;
        // a refusal that names no field is said here in the server's words
        const badData = e.code === "game/bad_data", marked = badData && adv && adv.refused(e.message);
        document.getElementById("f-error").textContent = marked ? t("adv.refused_fields")
          : badData ? t("adv.refused", { message: e.message }) : e.message;
      }
    };
  }

  /* After creating a table with invited people: one invite link per seat, the spectator link. */
  function createdBox(id, invites) {
    const box = document.getElementById("created");
    box.hidden = false;
    const spectator = location.origin + tableLink(id);
    box.replaceChildren(el("h2", {}, t("lobby.invites")),
      el("p", {}, t("lobby.invites_help")),
      el("ul", { class: "invites" }, Object.entries(invites).map(([seat, inv]) => {
        const url = inviteLink(id, inv);
        return el("li", {}, el("span", { class: "seat-chip seat-" + seat }, String.fromCharCode(65 + Number(seat))),
          el("input", { readonly: true, value: url, class: "invite", "data-seat": seat, "aria-label": t("share.invite_for",
            { letter: String.fromCharCode(65 + Number(seat)) }), onfocus: (e) => e.target.select() }),
          el("button", { type: "button", class: "copy-invite", "data-seat": seat, onclick: (e) => copyText(url, e.target) },
            t("share.copy_invite")));
      })),
      el("p", { class: "spectator-link" }, el("span", {}, t("share.spectators")), " ",
        el("button", { type: "button", id: "copy-spectator", onclick: (e) => copyText(spectator, e.target) },
          t("share.copy_spectator"))),
      el("p", { class: "muted" }, t("share.kept_here")),
      el("a", { href: tableLink(id), class: "button primary", id: "go-table" }, t("lobby.go")));
    box.scrollIntoView({ block: "nearest" });
  }

  /* The game list: your games first, then newest first; filter by game and status; finished
   * games behind a toggle. */
  const LIST = { game: "", status: "", finished: false };
  function drawFilters(meta) {
    let bar = document.getElementById("list-filters");
    if (!bar) {
      bar = el("div", { id: "list-filters", class: "filters" });
      document.getElementById("game-list").before(bar);
    }
    const gameSel = el("select", { id: "filter-game", "aria-label": t("lobby.filter_game"),
      onchange: (e) => { LIST.game = e.target.value; listGames(); } },
    el("option", { value: "" }, t("lobby.all_games")),
    meta.games.map(g => el("option", { value: g.id, selected: LIST.game === g.id }, g.title)));
    const statusSel = el("select", { id: "filter-status", "aria-label": t("lobby.filter_status"),
      onchange: (e) => { LIST.status = e.target.value; listGames(); } },
    [["", t("lobby.any_status")], ["open", t("lobby.status_open")], ["running", t("lobby.status_running")],
      ["abandoned", t("lobby.status_abandoned")], ["over", t("lobby.status_over")]].map(([v, l]) => el("option", { value: v, selected: LIST.status === v }, l)));
    bar.replaceChildren(el("label", {}, el("span", {}, t("lobby.filter_game")), gameSel),
      el("label", {}, el("span", {}, t("lobby.filter_status")), statusSel));
  }

  /* "5 minutes ago" / "vor 5 Minuten". */
  function ago(seconds) {
    const d = seconds - Date.now() / 1000;
    const rtf = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
    const a = Math.abs(d);
    if (a < 45) return rtf.format(0, "second");
    if (a < 2700) return rtf.format(Math.round(d / 60), "minute");
    if (a < 79200) return rtf.format(Math.round(d / 3600), "hour");
    if (a < 7 * 86400) return rtf.format(Math.round(d / 86400), "day");
    return new Date(seconds * 1000).toLocaleDateString(lang, { day: "numeric", month: "short", year: "numeric" });
  }

  async function listGames() {
    const box = document.getElementById("game-list");
    if (!box) return;
    const mineIds = myGames();
    let data;
    try {
      data = await api("GET", "/api/games?lang=" + lang + "&mine=" + encodeURIComponent(mineIds.join(",")));
    } catch (e) { return; }
    // a table nobody used for weeks is not "in progress": it has a filter of its own
    const state = (g) => g.status === "over" ? "over" : g.status === "abandoned" ? "abandoned"
      : g.open_seats.length ? "open" : "running";
    const mine = new Set(mineIds);
    const games = data.games.filter(g => (!LIST.game || g.game === LIST.game) && (!LIST.status || state(g) === LIST.status));
    games.sort((a, b) => (mine.has(b.id) - mine.has(a.id)) || (b.created - a.created));
    const showOver = LIST.finished || LIST.status === "over";
    const shown = games.filter(g => showOver || state(g) !== "over");
    const hidden = games.length - shown.length;
    const finishedCount = games.filter(g => state(g) === "over").length;
    const items = shown.map(g => {
      const st = state(g);
      const status = (st === "over" ? t("status.over") : st === "abandoned" ? t("status.abandoned")
        : st === "open" ? t("status.open", { n: g.open_seats.length }) : t("status.running"))
        + (g.attention ? " · " + t("status.attention") : "");
      const when = new Date(g.created * 1000);
      return el("li", { class: "game-item status-" + st + (mine.has(g.id) ? " mine" : ""), "data-id": g.id,
        "data-game": g.game, "data-status": st },
      el("strong", {}, g.title), " ",
      mine.has(g.id) ? el("span", { class: "tag mine-tag" }, t("lobby.mine")) : null, " ",
      el("span", { class: "players" }, g.players.join(", ")), " ",
      el("span", { class: "status muted" }, status), " ",
      el("time", { datetime: when.toISOString(), "data-t": String(g.created), title: when.toLocaleString(lang) },
        ago(g.created)), " ",
      el("a", { href: tableLink(g.id), class: "open-table" }, mine.has(g.id) && st !== "over" ? t("lobby.resume")
        : t("lobby.watch")));
    });
    const parts = [];
    if (!data.games.length) parts.push(el("p", { class: "muted" }, t("lobby.none")));
    else if (!shown.length) parts.push(el("p", { class: "muted" }, t("lobby.none_match")));
    if (shown.length) parts.push(el("ul", { class: "games" }, items));
    if (LIST.status !== "over" && (finishedCount || LIST.finished)) {
      parts.push(el("button", {
        type: "button", class: "link", id: "toggle-finished", "aria-expanded": String(LIST.finished),
        onclick: () => { LIST.finished = !LIST.finished; listGames(); },
      }, LIST.finished ? t("lobby.hide_finished") : t("lobby.show_finished", { n: hidden || finishedCount })));
    }
    box.replaceChildren(...parts);
  }

  // ---------------------------------------------------------------- join
  /* The invite page: who invites you, the game, its options in words, the seats; a name to take
   * the seat with. A used, replaced or unknown invite says so and offers to watch. */
  async function join() {
    await loadUI();
    const id = document.body.dataset.id;
    const invite = location.pathname.split("/").pop();
    const box = document.getElementById("join");
    let typed = null, message = "";
    const draw = async () => {
      document.getElementById("langs").replaceWith(Object.assign(langSwitch(draw), { id: "langs" }));
      let info;
      try { info = await api("POST", "/api/games/" + id + "/invitation", { invite, lang }); }
      catch (e) { box.replaceChildren(el("p", { class: "error", role: "alert" }, e.message)); return; }
      const letter = info.seat === null ? "?" : String.fromCharCode(65 + info.seat);
      document.title = t("join.title", { game: info.title }) + " — tablero";
      document.querySelector(".join-card h2").textContent = t("join.title", { game: info.title });
      const watch = el("a", { href: tableLink(id), class: "button", id: "j-watch" }, t("join.watch"));
      const parts = [];
      const have = saved(id).tokens.length > 0;
      if (info.status !== "open" || info.over) {
        const why = info.over ? t("join.over") : info.status === "taken" ? t("join.taken", { letter })
          : info.status === "revoked" ? t("join.revoked", { letter }) : t("join.unknown");
        parts.push(el("p", { class: "error", id: "j-status", role: "alert", "data-status": info.over ? "over" : info.status }, why));
        if (have && info.status === "taken") parts.push(el("p", {}, t("join.have_seat")));
        parts.push(el("p", { class: "actions" }, have
          ? el("a", { href: tableLink(id), class: "button primary", id: "j-table" }, t("join.to_table")) : null,
        " ", watch));
      } else {
        parts.push(el("p", { class: "inviter", id: "j-inviter" }, info.inviter
          ? t("join.by", { name: info.inviter, letter }) : t("join.by_nobody", { letter })));
      }
      parts.push(el("h3", {}, t("join.seats")),
        el("ul", { class: "join-seats", id: "j-seats" }, info.seats.map((s, i) => el("li", {
          class: i === info.seat && info.status === "open" ? "yours" : "", "data-seat": i,
        }, el("span", { class: "seat-chip seat-" + i }, s.letter), " ", el("span", { class: "name" }, s.name), " ",
        el("span", { class: "muted state" }, s.kind === "bot" || s.bot ? t("seat.botname", { bot: botLabel(s.bot) })
          : i === info.seat && info.status === "open" ? t("join.your_seat")
            : s.claimed ? t("join.joined") : t("seat.invited"))))));
      if (info.options.length) {
        parts.push(el("h3", {}, t("lobby.options")), el("dl", { class: "join-options", id: "j-options" },
          info.options.map(o => [el("dt", {}, o.label), el("dd", { "data-option": o.name }, o.value)]).flat()));
      }
      const adv = window.Tablero.parts.advanced;  // advanced.js: "Changed rules data: Beginner goal 40 (usual 50)"
      const changed = adv && adv.changes(info.data, { id: "j-data" });
      if (changed) parts.push(changed);
      parts.push(el("p", { class: "join-clock", id: "j-clock" },  // the clock per move, before you sit down
        info.move_seconds ? t("join.clock", { s: info.move_seconds }) : t("join.no_clock")));
      if (info.status === "open" && !info.over) {
        const name = el("input", { id: "j-name", maxlength: "24", autocomplete: "nickname", "aria-required": "true",
          value: typed !== null ? typed : myName() || info.suggested, oninput: (e) => { typed = e.target.value; } });
        const err = el("p", { class: "error", id: "j-error", role: "alert" }, message);
        const go = async (ev) => {
          ev.preventDefault();
          const n = name.value.trim();
          if (!n) { message = t("join.name_empty"); err.textContent = message; name.focus(); return; }
          try {
            const res = await api("POST", "/api/games/" + id + "/claim", { invite, name: n });
            const data = saved(id);
            data.tokens = Array.from(new Set(data.tokens.concat([res.token])));
            save(id, data);
            localStorage.setItem("tablero:name", n);
            location.replace(tableLink(id));
          } catch (e) { message = e.message; await draw(); }
        };
        parts.push(el("form", { class: "join-form", id: "j-form", onsubmit: go },
          el("label", { for: "j-name" }, t("join.name")), name,
          el("button", { id: "j-go", class: "primary", type: "submit" }, t("join.go", { letter })), err,
          el("p", { class: "muted" }, t("join.or_watch"), " ", watch)));
      }
      box.replaceChildren(...parts);
    };
    await draw();
  }

  // ---------------------------------------------------------------- table
  async function table() {
    await loadUI();
    const id = document.body.dataset.id;
    const gameId = document.body.dataset.game;
    const data = saved(id);  // this device's seats and keys (localStorage; see saved)
    // An old address (/game/ID#t=…&a=…) once carried the keys: move them into this device's
    // storage and take them out of the address, which is then the same as everybody's.
    const h = new URLSearchParams(location.hash.slice(1));
    if (h.has("t") || h.has("a")) {
      if (h.get("t")) data.tokens = Array.from(new Set(data.tokens.concat(h.get("t").split(",").filter(Boolean))));
      if (h.get("a")) data.admin = h.get("a");
      save(id, data);
      h.delete("t"); h.delete("a");
      const rest = h.toString();
      history.replaceState(history.state, "", location.pathname + location.search + (rest ? "#" + rest : ""));
    }
    const S = {
      id, gameId, payloads: {}, logs: {}, active: null, shown: null, filter: null, picked: null, ws: null,
      cat: {}, tableData: {}, error: "", status: "connecting", retry: 0, handover: false,
      thinking: null,  // {seat, bot, start}: a bot's search running now (start: this clock's ms)
      hint: null,      // {seat, version, text, label}: "What would the bot play?" (text null while asked)
      review: null,    // {seat, status: running|done|error, done, total, data, error}
      logFocus: null,  // the record entry whose log lines a review points at
      endClosed: false,
      selected: null,  // the move picked and waiting for "Confirm" (its wire text), or null
      logView: null,   // the log's list, kept between drawings (see logBox)
      notice: "",      // why this device watches now (its seat was given to another device), or ""
      shareNote: "",   // what the invite panel last did ("new invite link for B")
      shareOpen: null, // the invite panel opened or closed by hand (null: open while a seat waits for its person)
      taking: {},      // seat -> the invite made when taking it back, until an update shows the seat free
    };
    const app = document.getElementById("app");
    S.cat = await api("GET", "/api/catalogue/" + gameId + "/" + lang);
    S.tableData = await api("GET", "/api/games/" + id + "/table-data");  // the game's data with this table's overrides
    S.meta = (await api("GET", "/api/meta?data=false")).games.find(g => g.id === gameId) || null;  // bot levels

    function send(msg) {
      if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(msg));
    }
    function connect() {
      const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + id);
      S.ws = ws;
      ws.onopen = () => {
        S.status = "live"; S.retry = 0; S.logs = {};
        Object.assign(data, saved(id));  // the device's keys now: another tab may have stored a new one
        ws.send(JSON.stringify({ type: "hello", tokens: data.tokens, admin: data.admin, lang }));
      };
      ws.onmessage = (ev) => {
        const msg = JSON.parse(ev.data);
        if (Object.values(window.Tablero.on).some(h => h(msg, ctx))) return;  // the parts' own messages (chat.js)
        if (msg.type === "error") {
          const text = UI["error." + msg.code] || msg.message;
          if (String(msg.code).startsWith("review/") && S.review && S.review.status === "running") {
            S.review.status = "error"; S.review.error = text;
          } else {
            if (String(msg.code).startsWith("hint/")) S.hint = null;
            S.error = text;
          }
          draw(); return;
        }
        if (msg.type === "revoked") {
          if (msg.tokens) {  // the answer to hello: these keys of this device hold no seat (any more)
            Object.assign(data, saved(id));
            data.tokens = data.tokens.filter(x => !msg.tokens.includes(x));
            save(id, data);
            S.notice = msg.seats.length
              ? t("notice.revoked", { letters: msg.seats.map(i => String.fromCharCode(65 + i)).join(", ") })
              : t("notice.unknown_key");
            draw();
          } else {  // the creator took a seat from this device, or another tab rotated its key, just now:
            reconnect();  // say hello again with what the device holds (the server names a dead key)
          }
          return;
        }
        if (msg.type === "token") {  // a seat's key was replaced (rotation): store the new one at once
          Object.assign(data, saved(id));
          data.tokens = Array.from(new Set(data.tokens.filter(x => x !== msg.old).concat([msg.token])));
          save(id, data);
          return;
        }
        if (msg.type === "hint") {
          if (S.hint && S.hint.seat === msg.seat && S.hint.version === msg.version) {
            S.hint.text = msg.text; S.hint.label = msg.label; draw();
          }
          return;
        }
        if (msg.type === "review_progress") {
          if (S.review && S.review.seat === msg.seat && S.review.status === "running") {
            S.review.done = msg.done; S.review.total = msg.total; reviewProgress();
          }
          return;
        }
        if (msg.type === "review") {
          if (S.review && S.review.seat === msg.seat) {
            S.review = { seat: msg.seat, status: "done", data: msg.review };
            draw();
            const r = document.getElementById("review"); if (r) r.scrollIntoView({ block: "start" });
          }
          return;
        }
        if (msg.type !== "update") return;
        noteThinking(msg);
        const key = msg.viewer === null ? "spectator" : String(msg.viewer);
        const log = msg.log_since === 0 ? [] : (S.logs[key] || []);
        const prev = S.payloads[key];
        for (const line of log) line.fresh = false;
        for (const line of msg.log) { line.fresh = msg.log_since > 0; log.push(line); }
        S.logs[key] = log;  // the whole log (a long one is cheap: see logBox)
        msg.received = Date.now();  // the clocks count down from here
        S.payloads[key] = msg;
        if (prev && prev.version !== msg.version) {
          S.filter = null; S.picked = null; S.error = ""; S.hint = null; S.selected = null;
        }
        pickActive();
        draw();
      };
      ws.onclose = () => {
        S.status = "offline"; draw();
        S.retry = Math.min(S.retry + 1, 6);
        setTimeout(connect, 300 * S.retry);
      };
    }

    /* A bot's search: the server says how long it has run; the timer runs on from there. */
    function noteThinking(msg) {
      const th = msg.thinking;
      if (!th) { S.thinking = null; return; }
      if (S.thinking && S.thinking.seat === th.seat && S.thinking.version === msg.version) return;
      S.thinking = { seat: th.seat, bot: th.bot, version: msg.version, start: Date.now() - th.seconds * 1000 };
    }
    function secs(x) { return x < 1 ? x.toFixed(2) : x.toFixed(1); }
    function thinkText(start) {
      return t("seat.thinking_for", { s: (Math.max(0, Date.now() - start) / 1000).toFixed(1) });
    }
    setInterval(() => {
      for (const e of document.querySelectorAll(".think-timer")) e.textContent = thinkText(Number(e.dataset.start));
    }, 100);

    function localSeats() { return Object.keys(S.payloads).filter(k => k !== "spectator").map(Number); }
    function pickActive() {
      const mine = localSeats();
      if (!mine.length) { S.active = "spectator"; return; }
      const any = S.payloads[String(mine[0])];
      const pending = mine.filter(s => any.pending.includes(s) && !any.seats[s].bot);
      let next = S.active;
      if (next === null || next === "spectator" || !mine.includes(Number(next))) next = String(mine[0]);
      if (pending.length && !pending.includes(Number(next))) next = String(pending[0]);
      if (mine.length > 1 && S.shown !== null && next !== S.shown) S.handover = true;
      S.active = next;
    }

    function logKey(p) { return p.viewer === null ? "spectator" : String(p.viewer); }

    /* The kit a board draws with (boardkit.js): this viewer's payload, words and log. */
    function boardKit(root, p) {
      return BoardKit.create(root, p, {
        lang, cat: S.cat, data: S.tableData, log: S.logs[logKey(p)] || [], ui: t,
        filter: S.filter, picked: S.picked, selected: S.selected,
        choose: (texts, pick) => {
          const legal = new Set(p.legal.map(l => l.text));
          const ok = (texts || []).filter(x => legal.has(x));
          if (ok.length === 1) act(ok[0]);
          else if (ok.length > 1) {
            S.filter = ok; S.picked = pick === undefined ? null : pick; S.selected = null; draw();
            const f = document.querySelector(".moves button"); if (f) f.focus();
          }
        },
        unpick: () => { S.filter = null; S.picked = null; S.selected = null; draw(); },
      });
    }

    /* Where clicks become moves (the move list, board places, number keys). A move that needs a
     * confirmation (the "confirm moves" setting: always, only moves that cannot be taken back —
     * the payload's `final` — or never) is selected by the first activation and played by a
     * second one, by "Confirm" or by Enter; Escape or "Cancel" puts it back. */
    function act(text) {
      const p = S.payloads[S.active];
      const move = ((p && p.legal) || []).find(l => l.text === text);
      if (move && S.selected !== text && needsConfirm(move)) {
        S.selected = text;
        draw();
        const c = document.getElementById("confirm-move"); if (c) c.focus({ preventScroll: true });
        const sb = document.querySelector(".moves button.move.selected");  // in view in the move list
        if (sb) {
          const ul = sb.closest(".moves"), r = sb.getBoundingClientRect(), u = ul.getBoundingClientRect();
          if (r.top < u.top || r.bottom > u.bottom) ul.scrollTop += r.top - u.top - u.height / 3;
        }
        return;
      }
      commit(text);
    }
    function commit(text) {
      const p = S.payloads[S.active];
      S.filter = null;
      S.picked = null;
      S.selected = null;
      send({ type: "act", seat: p.viewer, version: p.version, action: text });
    }
    function cancelSelected() { S.selected = null; draw(); }
    function needsConfirm(move) {
      const mode = confirmMode();
      return mode === "always" || (mode === "final" && !!move.final);
    }
    /* "Confirm moves", a setting of this device (localStorage): always / final (default) / never. */
    function confirmMode() {
      const m = localStorage.getItem("tablero:confirm");
      return CONFIRM_MODES.includes(m) ? m : "final";
    }

    function draw() {
      const p = S.payloads[S.active];
      const focused = BoardKit.focusKey(app.querySelector(".board"));
      const setFocus = SET.node && SET.node.contains(document.activeElement) ? document.activeElement : null;  // in the ⚙ menu
      const motion = BoardKit.animate && BoardKit.animate.before(app.querySelector(".board"));  // where pieces were (animations)
      app.replaceChildren();
      const header = el("header", { class: "top" },
        el("h1", {}, el("a", { href: "/", class: "home" }, "tablero"), " · ", p ? p.title : document.title.split(" — ")[0]),
        el("span", { class: "conn " + S.status, role: "status" }, t("conn." + S.status)),
        el("a", { class: "rules-link", id: "rules-link", href: "/rules/" + gameId + "?lang=" + lang, target: "_blank",
          rel: "noopener", title: t("rules.open") }, t("rules.link")),
        settingsMenu(),
        langSwitch(async () => { S.cat = await api("GET", "/api/catalogue/" + gameId + "/" + lang); reconnect(); }));
      app.append(header);
      if (setFocus && setFocus.isConnected && document.activeElement !== setFocus) setFocus.focus({ preventScroll: true });
      if (!p) { app.append(el("p", { class: "loading" }, t("conn.connecting"))); if (S.error) app.append(el("p", { class: "error", role: "alert" }, S.error)); return; }
      app.dataset.version = "";
      if (S.handover) {
        const name = p.seats[p.viewer].name;
        app.append(el("section", { class: "handover card", role: "dialog", "aria-modal": "true" },
          el("h2", {}, t("handover.title", { name })),
          el("p", {}, t("handover.text", { name })),
          el("button", {
            class: "primary", id: "handover-go", onclick: () => { S.handover = false; S.shown = S.active; draw(); },
          }, t("handover.go", { name }))));
        const b = document.getElementById("handover-go"); if (b) b.focus();
        return;
      }
      S.shown = S.active;
      app.dataset.version = String(p.version);
      app.dataset.viewer = String(p.viewer);
      app.append(seatBar(p));
      // The player's own decision first (on a phone it comes above the board), then the board, then the rest.
      const main = el("div", { class: "layout" });
      const decision = el("section", { class: "decision", "aria-label": t("table.decision") });
      const boardBox = el("section", { class: "board", "aria-label": t("table.board") });
      const side = el("aside", { class: "side" });
      main.append(decision, boardBox, side);
      app.append(main);
      const presenter = (window.TableroBoards || {})[gameId];
      try {
        if (presenter) presenter.render(boardBox, p, boardKit(boardBox, p));
        else boardBox.append(el("pre", {}, JSON.stringify(p.view, null, 1)));
        BoardKit.refocus(boardBox, focused);
      } catch (e) {
        boardBox.append(el("p", { class: "error" }, "board: " + e.message));
        console.error(e);
      }
      decision.append(turnBox(p), movesBox(p));
      if (p.result && window.Tablero.parts.endScreen) decision.append(window.Tablero.parts.endScreen(p, ctx));  // endscreen.js
      const changed = window.Tablero.parts.advanced && window.Tablero.parts.advanced.changes(p.data_changes, { note: true });
      if (changed) side.append(changed);  // advanced.js: the rules data this table changed, for everyone
      if (p.attention) side.append(attentionBox(p));  // a bot's move failed: the bots wait (docs/web.md)
      side.append(adminBox(p), sharePanel(p), logBox(p));
      const replayBox = window.Tablero.parts.replay && window.Tablero.parts.replay(p, ctx); if (replayBox) side.prepend(replayBox);  // replay.js
      if (window.Tablero.parts.chat) side.append(window.Tablero.parts.chat(p, ctx));
      placeLog();
      if (S.review) app.append(reviewPanel(p));
      if (BoardKit.animate) BoardKit.animate.after(boardBox, motion, logKey(p), p.version);  // pieces glide to where they went
    }

    function reconnect() { if (S.ws) { S.ws.onclose = null; S.ws.close(); } S.payloads = {}; connect(); draw(); }

    function seatBar(p) {
      const score = (i) => {
        const v = p.view.public || p.view;  // views have a public part (every seat sees the same)
        for (const k of ["scores", "vp", "score"]) if (Array.isArray(v[k])) return v[k][i];
        return null;
      };
      const thinking = (i) => !p.result && p.pending.includes(i) && p.seats[i].bot;
      const searching = (i) => S.thinking && S.thinking.seat === i && thinking(i);
      const thought = (i) => !searching(i) && (p.thought || {})[String(i)];
      return el("ol", { class: "seatbar", "aria-label": t("table.seats") }, p.seats.map((s, i) => el("li", {
        class: "seat seat-" + i + (p.pending.includes(i) ? " to-act" : "") + (i === p.viewer ? " me" : "") +
          (thinking(i) ? " thinking" : ""),
        style: "--seat:" + s.colour,
      },
        el("span", { class: "letter", "aria-hidden": "true" }, s.letter),
        el("span", { class: "name" }, s.name),
        s.bot ? el("span", { class: "tag" }, t("seat.botname", { bot: botLabel(s.bot) })) : null,
        thinking(i) ? el("span", { class: "bk-dots", title: t("seat.thinking") }, el("i"), el("i"), el("i")) : null,
        searching(i) ? el("span", { class: "think-timer", role: "timer", "data-start": String(S.thinking.start) },
          thinkText(S.thinking.start)) : null,
        thought(i) ? el("span", {
          class: "thought", "data-seat": i,
          title: t("seat.thought_title", { name: s.name, s: secs(thought(i).seconds) }),
        }, t("seat.thought", { s: secs(thought(i).seconds) })) : null,
        !s.connected && !s.bot ? el("span", { class: "tag away" }, s.claimed ? t("seat.away") : t("seat.invited")) : null,
        score(i) !== null ? el("span", { class: "score", title: t("table.score") }, String(score(i))) : null,
        p.clocks[String(i)] !== undefined ? clockChip(p, i) : null,
        p.pending.includes(i) ? el("span", { class: "sr" }, t("table.to_act")) : null,
      )));
    }

    /* A seat's move clock: counts down every second from what the update said (p.clocks, seconds
     * left when it was sent), red under 10 s. Everyone sees every clock. */
    function clockChip(p, i) {
      const deadline = (p.received || Date.now()) + p.clocks[String(i)] * 1000;
      const e = el("span", { class: "clock", role: "timer", "data-deadline": String(deadline),
        title: t("table.clock_title", { name: p.seats[i].name }) });
      tickClock(e);
      return e;
    }
    function tickClock(e) {
      const left = Math.max(0, Math.ceil((Number(e.dataset.deadline) - Date.now()) / 1000));
      const text = left >= 60 ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : left + " s";
      if (e.textContent !== text) e.textContent = text;
      e.classList.toggle("low", left < 10);
    }
    setInterval(() => { for (const e of document.querySelectorAll(".seatbar .clock[data-deadline]")) tickClock(e); }, 250);

    function turnBox(p) {
      const box = el("div", { class: "turn", role: "status", "aria-live": "polite" });
      if (p.result) { box.append(t("table.over")); return box; }
      const mine = p.viewer !== null && p.pending.includes(p.viewer) && !p.seats[p.viewer].bot;
      box.classList.toggle("mine", mine);
      box.append(mine ? t("table.your_turn", { name: p.seats[p.viewer].name })
        : t("table.waiting", { names: p.pending.map(i => p.seats[i].name).join(", ") }));
      if (S.error) box.append(el("p", { class: "error", role: "alert" }, S.error));
      return box;
    }

    function movesBox(p) {
      const box = el("div", { class: "moves-box" });
      if (p.viewer === null) return box;
      const seat = p.seats[p.viewer];
      if (seat.replaced) {
        box.append(el("button", { id: "reclaim", onclick: () => send({ type: "reclaim", seat: p.viewer }) }, t("table.reclaim")));
        return box;
      }
      const list = S.filter ? p.legal.filter(l => S.filter.includes(l.text)) : p.legal;
      const hint = S.hint && S.hint.seat === p.viewer && S.hint.version === p.version ? S.hint : null;
      const hinted = hint && hint.text ? hint.text : null;
      const sel = S.selected ? p.legal.find(l => l.text === S.selected) : null;
      if (sel) box.append(confirmBox(sel));
      if (list.length) {
        box.append(el("h2", {}, t("table.moves")));
        if (S.filter) box.append(el("button", { class: "link", id: "all-moves", onclick: () => { S.filter = null; S.picked = null; draw(); } }, t("table.all_moves")));
        box.append(el("ul", { class: "moves" }, list.map((l, i) => el("li", {},
          el("button", {
            type: "button", class: "move" + (l.text === hinted ? " hinted" : "") + (sel === l ? " selected" : ""),
            "data-action": l.text, "aria-pressed": sel === l ? "true" : null,
            onclick: () => act(l.text),
          },
            i < 9 ? el("kbd", {}, String(i + 1)) : null, " ", l.label,
            l.text === hinted ? el("span", { class: "hint-mark" }, t("table.hint_mark")) : null)))));
      }
      if (p.hints && p.legal.length) {
        if (hint) {
          box.append(el("p", { class: "hint-says", id: "hint-says", role: "status" },
            hint.text ? t("table.hint_says", { move: hint.label }) : t("table.hint_wait")));
        }
        box.append(el("button", {
          id: "hint", type: "button", disabled: !!(hint && !hint.text),
          onclick: () => {
            S.hint = { seat: p.viewer, version: p.version, text: null, label: null };
            send({ type: "hint", seat: p.viewer, version: p.version });
            draw();
          },
        }, t("table.hint")));
      }
      const tools = el("div", { class: "tools" });
      if (p.can_undo) tools.append(el("button", { id: "undo", onclick: () => send({ type: "undo", seat: p.viewer, version: p.version }) }, t("table.undo")));
      if (!p.result) tools.append(el("button", { class: "link", id: "leave", onclick: () => { if (confirm(t("table.leave_q"))) send({ type: "leave", seat: p.viewer }); } }, t("table.leave")));
      box.append(tools);
      return box;
    }

    /* The selected move waiting for a second activation: its label, Confirm (Enter) and Cancel (Esc). */
    function confirmBox(move) {
      return el("div", { class: "confirm-box", id: "confirm-box", role: "group", "aria-labelledby": "confirm-q" },
        el("p", { class: "confirm-q", id: "confirm-q" }, t("table.confirm_q")),
        el("p", { class: "confirm-label", id: "confirm-label" }, move.label),
        move.final ? el("p", { class: "confirm-final" }, t("table.final")) : null,
        el("div", { class: "confirm-buttons" },
          el("button", { type: "button", class: "primary", id: "confirm-move", onclick: () => commit(move.text) },
            t("table.confirm")),
          el("button", { type: "button", id: "cancel-move", onclick: cancelSelected }, t("table.cancel"))));
    }

    /* The table's one settings place, the ⚙ popover in the header: "Confirm moves", "Animations" and
     * the "your turn" alerts (chat.js, Tablero.parts.alertSettings). The settings belong to this
     * device (localStorage). One element kept across redraws (open state and focus survive a move
     * arriving; see draw), made anew when the language changes. Escape or a click elsewhere closes
     * it; Escape gives the focus back to the button. */
    const SET = { node: null, lang: null, open: null, alerts: false };
    function settingsMenu() {
      const withAlerts = !!window.Tablero.parts.alertSettings;  // chat.js loaded (it always is, after this script)
      if (SET.node && SET.lang === lang && SET.alerts === withAlerts) return SET.node;
      if (SET.node) SET.node.remove();
      const mode = confirmMode();
      const button = el("button", {
        type: "button", class: "settings-button", id: "settings-button", "aria-haspopup": "dialog",
        "aria-expanded": "false", "aria-controls": "settings-panel", title: t("table.settings"), "aria-label": t("table.settings"),
      }, "⚙");
      const alerts = withAlerts ? window.Tablero.parts.alertSettings() : null;
      const panel = el("div", { class: "settings-panel", id: "settings-panel", role: "dialog", "aria-label": t("table.settings"), hidden: true },
        el("fieldset", { class: "settings-group", id: "settings-confirm" }, el("legend", {}, t("table.confirm_moves")),
          CONFIRM_MODES.map(m => el("label", {},
            el("input", {
              type: "radio", name: "confirm-mode", value: m, id: "confirm-" + m, checked: m === mode,
              onchange: () => { localStorage.setItem("tablero:confirm", m); if (S.selected) draw(); },
            }), " ", t("table.confirm_" + m)))),
        animSetting(),
        alerts,
        el("p", { class: "muted settings-device" }, t("table.settings_device")));
      const box = el("div", { class: "table-settings", id: "settings" }, button, panel);
      const open = (on, backToButton) => {
        if (on === !panel.hidden) return;
        panel.hidden = !on;
        button.setAttribute("aria-expanded", String(on));
        box.classList.toggle("open", on);
        if (on) {  // on a phone the panel is fixed below the header (style.css), whatever the page's scroll
          panel.style.setProperty("--settings-top", Math.round(button.getBoundingClientRect().bottom + 6) + "px");
          const first = panel.querySelector("input:checked:not([disabled])") || panel.querySelector("input:not([disabled])");
          if (first) first.focus({ preventScroll: true });
        } else if (backToButton) button.focus({ preventScroll: true });
      };
      button.addEventListener("click", () => open(panel.hidden, false));
      box.addEventListener("keydown", (e) => {
        if (e.key === "Escape" && !panel.hidden) { e.preventDefault(); e.stopPropagation(); open(false, true); }
      });
      box.addEventListener("focusout", (e) => {  // the focus went elsewhere on the page (Tab past the last switch)
        if (e.relatedTarget && !box.contains(e.relatedTarget)) open(false, false);
      });
      Object.assign(SET, { node: box, lang, open, alerts: withAlerts });
      return box;
    }
    document.addEventListener("click", (e) => {  // a click elsewhere closes the settings menu
      if (SET.node && SET.open && !SET.node.contains(e.target)) SET.open(false, false);
    });
    document.addEventListener("keydown", (e) => {  // Escape with the focus nowhere in particular (a click on the panel's text)
      if (e.key === "Escape" && SET.node && SET.node.classList.contains("open")) {
        e.preventDefault(); e.stopImmediatePropagation(); SET.open(false, true);
      }
    });
    /* "Animations" (boardkit.js BoardKit.animate): on unless switched off here; none while the system asks for reduced motion. */
    function animSetting() {
      const A = BoardKit.animate;
      if (!A) return null;
      return el("div", { class: "anim-setting" },
        el("label", {}, el("input", { type: "checkbox", id: "anim-setting", checked: A.setting() && !A.reduced(),
          disabled: A.reduced(), onchange: (e) => A.setEnabled(e.target.checked) }), " ", t("anim.setting")),
        A.reduced() ? el("p", { class: "muted small", id: "anim-reduced" }, t("anim.reduced")) : null);
    }

    /* A bot's move failed (p.attention): everybody is told; the creator may let the bots try again. */
    function attentionBox(p) {
      return el("div", { class: "notice attention", id: "attention", role: "alert" },
        el("p", {}, t("attention.note")),
        p.admin ? el("button", { type: "button", id: "resume-bots", onclick: () => send({ type: "resume" }) },
          t("attention.resume")) : null);
    }

    function adminBox(p) {
      const box = el("div", { class: "admin" });
      if (!p.admin || p.result) return box;
      p.seats.forEach((s, i) => {
        if (s.kind === "bot" || s.bot) return;
        const gone = s.left || (s.away !== null && s.away >= p.away_seconds);
        if (!gone) return;
        const levels = ((S.meta && S.meta.bots) || ["greedy"]);
        const level = el("select", { class: "replace-level", "data-seat": i, "aria-label": t("admin.level") },
          levels.map(b => el("option", { value: b, selected: b === ((S.meta && S.meta.default_bot) || "greedy") }, botLabel(b))));
        box.append(el("p", {}, t("admin.gone", { name: s.name }), " ", level, " ",
          el("button", { class: "replace", "data-seat": i, onclick: () => send({ type: "replace", seat: i, bot: level.value }) }, t("admin.replace"))));
      });
      return box;
    }

    /* Invite and share: the spectator link for everybody; for the creator, per person seat a
     * "copy invite link" (an invite this device keeps until the seat is taken), a new link, and
     * taking a seat back from the device that holds it (that device then watches) to invite anew.
     * No link here carries a seat's key or the creator's key. */
    function sharePanel(p) {
      const open = S.shareOpen !== null ? S.shareOpen
        : (p.admin && !p.result && p.seats.some(s => s.kind !== "bot" && !s.claimed));
      const box = el("details", { class: "share", id: "share", open,
        ontoggle: (e) => { S.shareOpen = e.target.open; } });
      if (S.notice) {  // why this device only watches now: at the top, under the seats, until read
        const note = el("p", { class: "notice", id: "notice", role: "alert" }, S.notice, " ",
          el("button", { type: "button", class: "link", id: "notice-ok",
            onclick: () => { S.notice = ""; draw(); } }, t("notice.ok")));
        const bar = app.querySelector(".seatbar");
        if (bar) bar.after(note); else box.append(note);
      }
      const spectator = location.origin + tableLink(id);
      const mine = new Set(localSeats());
      const rows = [];
      if (p.admin && !p.result) {
        p.seats.forEach((s, i) => {
          if (s.kind === "bot" || mine.has(i)) return;
          const letter = s.letter, inv = (data.invites || {})[String(i)];
          const renew = async (ask) => {
            if (!confirm(t(ask, { letter, name: s.name }))) return;
            try {
              const res = await api("POST", "/api/games/" + id + "/invite", { admin: data.admin, seat: i });
              // the answer may come before the update that shows the seat free: until then the
              // seat still looks taken here, and its new invite must not be dropped as spent
              if (s.claimed) S.taking[i] = res.invite;
              data.invites = Object.assign({}, data.invites, { [String(i)]: res.invite });
              save(id, data);
              S.shareNote = t("share.made", { letter });
              await copyText(inviteLink(id, res.invite), null);
            } catch (e) { S.shareNote = e.message; }
            draw();
          };
          const buttons = [];
          if (!s.claimed) {
            delete S.taking[i];
            if (inv) {
              buttons.push(el("button", { type: "button", class: "copy-invite", "data-seat": i,
                onclick: (e) => copyText(inviteLink(id, inv), e.target) }, t("share.copy_invite")));
            }
            buttons.push(el("button", { type: "button", class: "link new-invite", "data-seat": i,
              onclick: () => renew("share.new_q") }, inv ? t("share.new_link") : t("share.make_link")));
          } else {
            if (inv && S.taking[i] !== inv) {  // taken: the old invite is spent
              delete data.invites[String(i)]; save(id, data);
            }
            buttons.push(el("button", { type: "button", class: "link revoke", "data-seat": i,
              onclick: () => renew("share.revoke_q") }, t("share.revoke")));
          }
          rows.push(el("li", { "data-seat": i }, el("span", { class: "seat-chip", style: "--seat:" + s.colour }, letter),
            " ", el("span", { class: "name" }, s.name), " ",
            el("span", { class: "muted" }, s.claimed ? t("join.joined") : t("seat.invited")), " ", ...buttons));
        });
      }
      box.prepend(el("summary", {}, el("h2", {}, t("share.title"))));
      if (rows.length) box.append(el("ul", { class: "share-seats" }, rows));
      if (S.shareNote) box.append(el("p", { class: "share-note", role: "status" }, S.shareNote));
      box.append(el("p", {}, el("button", { type: "button", id: "copy-spectator",
        onclick: (e) => copyText(spectator, e.target) }, t("share.copy_spectator"))),
      el("p", { class: "muted small" }, p.viewer === null ? t("share.watching") : t("share.kept_here")));
      return box;
    }

    /* The game log: every line of it, each rendered now from its message with the seats' current
     * names (someone who joined later is named in the earlier lines too). A line that opens a
     * round or a month ("section": true) is a header; a table's note (a hint asked, a bot moving
     * for someone) is set apart. The list is kept between drawings and only grows by the new
     * lines. Scrolled back, it stays where the reader is; at the bottom, it follows new lines. */
    function logBox(p) {
      const key = logKey(p), lines = S.logs[key] || [];
      const names = p.seats.map(s => s.name);
      const sig = key + "|" + lang + "|" + JSON.stringify(names);
      let L = S.logView;
      if (!L || L.sig !== sig || L.lines !== lines || L.count > lines.length) {
        const same = L && L.key === key;  // the same viewer's log again (a new name, a reconnection): keep the reader's place
        const view = L = S.logView = { key, sig, lines, count: 0, focus: null, jump: false, settling: 0,
          stick: same ? L.stick : true, top: same ? L.top : 0,
          ol: el("ol", { class: "log", "aria-label": t("table.log") }) };
        view.ol.addEventListener("scroll", () => {  // where the reader is (our own scrolling aside)
          if (view.settling) return;
          view.top = view.ol.scrollTop;
          view.stick = view.ol.scrollHeight - view.ol.scrollTop - view.ol.clientHeight < 8;
        });
      }
      const ol = L.ol;
      for (const li of ol.querySelectorAll("li.fresh")) if (!li.bkLine.fresh) li.classList.remove("fresh");
      // Only lines that arrive in this drawing fade in, once: the list leaves the page at every
      // drawing, and a CSS animation starts over when its element comes back (lines drawn before
      // stand at once). No fade with reduced motion or the animations setting off.
      for (const li of ol.querySelectorAll("li.arrive")) li.classList.remove("arrive");
      const motion = !!(BoardKit.animate && BoardKit.animate.enabled());
      let fresh = 0;
      for (; L.count < lines.length; L.count++) {
        const l = lines[L.count];
        const arrive = l.fresh && motion;
        const cls = [l.fresh ? "fresh" : "", arrive ? "arrive" : "", l.note ? "note" : "",
          l.section ? "section" : ""].filter(Boolean).join(" ");
        const li = el("li", { class: cls || null, "data-i": l.i },
          el("span", { class: "n", "aria-hidden": "true" }, String(L.count + 1)),
          el("span", { class: "t" }, BoardKit.renderLine(S.cat, l, names)));
        li.bkLine = l;
        if (arrive) {
          li.style.animationDelay = (Math.min(fresh++, 8) * 60) + "ms";
          li.addEventListener("animationend", () => li.classList.remove("arrive"), { once: true });
        }
        ol.append(li);
      }
      ol.style.setProperty("--digits", String(String(lines.length).length));  // line numbers never clipped
      const focus = S.review && S.review.status === "done" ? S.logFocus : null;
      if (focus !== L.focus) {
        for (const li of ol.querySelectorAll("li.focus")) li.classList.remove("focus");
        if (focus !== null) for (const li of ol.querySelectorAll(`li[data-i="${focus}"]`)) li.classList.add("focus");
        L.focus = focus;
        L.jump = focus !== null;
      }
      return el("div", { class: "log-box" }, el("h2", {}, t("table.log")), ol);
    }
    /* The log list leaves the page at every drawing, and its scroll position with it: put it back
     * where the reader was, or at the newest line (for a few frames: fresh lines animate in). */
    function placeLog() {
      const L = S.logView;
      if (!L || !L.ol.isConnected) return;
      const ol = L.ol;
      if (L.jump) {
        L.jump = false;
        const f = ol.querySelector("li.focus");
        if (f) { ol.scrollTop = Math.max(0, f.offsetTop - ol.clientHeight / 3); return; }
      }
      if (!L.stick) { ol.scrollTop = L.top; return; }
      L.settling++;
      let frames = 0;
      const down = () => {
        if (ol.isConnected) ol.scrollTop = ol.scrollHeight;
        if (++frames < 5 && ol.isConnected) requestAnimationFrame(down);
        else requestAnimationFrame(() => { L.settling--; });
      };
      down();
    }

    /* "Review this game": your own seat first; once the game is over, any seat. */
    function reviewPicker(p, where) {
      const own = S.review ? S.review.seat : p.viewer !== null ? p.viewer : 0;
      const ids = where === "panel" ? ["review-seat-again", "review-again"] : ["review-seat", "review-open"];
      const pick = el("select", { id: ids[0], "aria-label": t("review.seat") },
        p.seats.map((s, i) => el("option", { value: i, selected: i === own }, s.letter + " · " + s.name)));
      return el("div", { class: "review-pick" },
        el("label", {}, el("span", {}, t("review.seat")), " ", pick), " ",
        el("button", {
          id: ids[1], type: "button", disabled: !!(S.review && S.review.status === "running"),
          onclick: () => startReview(Number(pick.value)),
        }, t("review.open")));
    }

    function startReview(seat) {
      S.review = { seat, status: "running", done: 0, total: 0 };
      S.logFocus = null;
      S.endClosed = true;
      send({ type: "review", seat });
      draw();
      const r = document.getElementById("review"); if (r) r.scrollIntoView({ block: "start" });
    }

    function reviewProgress() {
      const R = S.review;
      const pct = R.total ? Math.floor(100 * R.done / R.total) : 0;
      const bar = document.querySelector("#review progress"), txt = document.getElementById("review-status");
      if (!bar || !txt) { draw(); return; }
      bar.value = pct; txt.textContent = t("review.running", { pct });
    }

    /* Each decision of the seat: entry, the move played, the bot's best, the loss in winning
     * chances (percentage points) and the top options; the biggest mistake marked. */
    function reviewPanel(p) {
      const R = S.review;
      const name = (p.seats[R.seat] || {}).name || "?";
      const box = el("section", { class: "review card", id: "review", "aria-label": t("review.title", { name }) },
        el("div", { class: "review-head" }, el("h2", {}, t("review.title", { name })),
          el("button", { class: "link", id: "review-close", onclick: () => { S.review = null; S.logFocus = null; draw(); } },
            t("review.close"))),
        p.result ? reviewPicker(p, "panel") : null);
      if (R.status === "running") {
        const pct = R.total ? Math.floor(100 * R.done / R.total) : 0;
        box.append(el("p", { id: "review-status", role: "status" }, t("review.running", { pct })),
          el("progress", { max: "100", value: String(pct) }));
        return box;
      }
      if (R.status === "error") { box.append(el("p", { class: "error", role: "alert" }, R.error)); return box; }
      const d0 = R.data.decisions;
      if (!d0.length) { box.append(el("p", {}, t("review.none", { name }))); return box; }
      const pp = (x) => (Math.round(x * 1000) / 10).toFixed(1);
      box.append(el("p", { class: "muted" }, t("review.help", { name })));
      box.append(el("ol", { class: "review-list" }, d0.map(d => {
        const worst = d.index === R.data.worst;
        return el("li", {
          class: "decision" + (worst ? " worst" : "") + (d.loss > 0 ? "" : " good") + (S.logFocus === d.index ? " focus" : ""),
          "data-index": d.index,
        },
          el("div", { class: "d-head" },
            el("button", {
              type: "button", class: "link d-index", title: t("review.log"),
              onclick: () => { S.logFocus = d.index; draw(); },
            }, t("review.entry") + " " + (d.index + 1)),  // entries count from 0, people from 1
            worst ? el("strong", { class: "worst-tag" }, t("review.worst")) : null,
            el("span", { class: "loss", title: t("review.loss") }, d.loss > 0 ? "−" + pp(d.loss) + " %" : t("review.good"))),
          el("dl", {},
            el("dt", {}, t("review.chosen")), el("dd", { class: "chosen" }, d.chosen_label || d.chosen),
            d.best !== d.chosen ? el("dt", {}, t("review.best")) : null,
            d.best !== d.chosen ? el("dd", { class: "best" }, d.best_label || d.best) : null,
            el("dt", {}, t("review.options")),
            el("dd", {}, el("ol", { class: "opts" }, d.options.slice(0, 3).map(o => el("li", {
              class: o.text === d.chosen ? "played" : "",
            }, el("span", { class: "v" }, pp(o.value) + " %"), " ", o.label || o.text))))));
      })));
      return box;
    }

    async function rematch() {
      try {
        const res = await api("POST", "/api/games/" + id + "/rematch", { tokens: data.tokens });
        const nd = { tokens: Object.values(res.tokens), admin: null, invites: {} };
        save(res.id, nd);  // the new seats' keys stay on this device; the address carries none
        location.href = tableLink(res.id);
      } catch (e) { S.error = e.message; draw(); }
    }

    /* What the table's parts (Tablero.parts, from the other scripts) may use. */
    const ctx = { S, id, gameId, data, app, send, draw: () => draw(), act, kit: (root, p) => boardKit(root, p),
      reviewPicker: (p, where) => reviewPicker(p, where), rematch: () => rematch() };
    window.Tablero.ctx = ctx;

    document.addEventListener("keydown", (e) => {
      if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
      if (/^[1-9]$/.test(e.key)) {
        const b = document.querySelectorAll(".moves button.move")[Number(e.key) - 1];
        if (b) { e.preventDefault(); b.click(); }
      } else if (e.key === "u" || e.key === "U") {
        const b = document.getElementById("undo"); if (b) b.click();
      } else if (e.key === "h" || e.key === "H") {
        const b = document.getElementById("hint"); if (b && !b.disabled) { e.preventDefault(); b.click(); }
      } else if (S.selected && e.key === "Escape") {
        e.preventDefault(); cancelSelected();
      } else if (S.selected && e.key === "Enter" && !e.defaultPrevented && e.target &&
                 !["BUTTON", "A", "TEXTAREA", "SUMMARY"].includes(e.target.tagName) &&
                 !(e.target.closest && e.target.closest("[data-bk-place]"))) {
        const b = document.getElementById("confirm-move"); if (b) { e.preventDefault(); b.click(); }
      }
    });
    setInterval(() => { if (S.ws && S.ws.readyState === 1) send({ type: "ping" }); }, 20000);
    connect();
    draw();
  }

  /* Shared with the client's other scripts (chat.js, endscreen.js, replay.js, ...), which load
   * after this one and add their parts to Tablero.parts: each part is a function the table
   * calls with (payload, ctx). */
  window.Tablero = {
    lobby, table, join, parts: {}, on: {},
    util: { el, t, api, botLabel, saved, save, langSwitch, loadUI, get lang() { return lang; } },
  };

  /* The page starts here, not in an inline script (the server's Content-Security-Policy allows
   * only the site's own script files): the body's data-start names the page (lobby, table, join;
   * tutorial.js adds tutorial), run once every script of the page has loaded. */
  document.addEventListener("DOMContentLoaded", () => {
    const start = document.body.dataset.start;
    if (["lobby", "table", "join", "tutorial"].includes(start) && typeof window.Tablero[start] === "function") {
      window.Tablero[start]();
    }
  });
})();
