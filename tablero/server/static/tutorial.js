/* tutorial.js — the tutorial page (/tutorial/<game>?lang=): a game's lesson, step by step.
 *
 * Its own page, not a part of the table: the page shell (app.py tutorial_page) loads boardkit.js,
 * app.js (for Tablero.util: words, requests, the language switch), this file and the game's
 * board.js; app.js then calls Tablero.tutorial() (the body's data-start). Loaded anywhere else it
 * only defines that function.
 *
 * The server keeps nothing (tablero/server/tutorial.py): every request rebuilds the step from
 * its scenario. GET /api/tutorial/<game>?lang= lists the steps; POST /api/tutorial/<game>/<k>
 * with {moves: [], lang} shows step k as it begins, with {moves: [text]} tries a move. The answer
 * carries seat 0's payload, which the game's board draws exactly as at a table, whether the move
 * was accepted, and the explanation or the hint. Moves are played from the move list or by
 * clicking the board (the kit's places, as at the table: one move plays, several narrow the list).
 * The step shown is kept in the address (#step-3), so a reload stays there.
 */
"use strict";
(function () {
  const T = window.Tablero;
  if (!T) return;

  T.tutorial = async function tutorial() {
    const { el, t, api, langSwitch, loadUI } = T.util;
    const lang = () => T.util.lang;
    const gameId = document.body.dataset.game;
    const app = document.getElementById("app");
    const S = {
      meta: null,      // GET /api/tutorial: heading, intro, steps
      step: null,      // the last POST's answer
      index: 0,
      cat: {}, data: {},
      filter: null,    // move texts the list is narrowed to (a board place with several moves)
      picked: null,    // the board place picked (kit opts.pick)
      busy: false,
      finished: false, // past the last step
      error: "",
    };

    function fromHash() {
      const m = /^#step-(\d+)$/.exec(location.hash);
      return m ? Math.max(0, Number(m[1]) - 1) : 0;
    }
    function address() {
      const q = new URLSearchParams(location.search);
      q.set("lang", lang());
      history.replaceState(null, "", location.pathname + "?" + q.toString() + "#step-" + (S.index + 1));
    }

    async function loadWords() {
      S.cat = await api("GET", "/api/catalogue/" + gameId + "/" + lang());
      S.meta = await api("GET", "/api/tutorial/" + gameId + "?lang=" + lang());
      document.title = t("tutorial.page_title", { game: S.meta.title }) + " — tablero";
      document.documentElement.lang = lang();
    }

    /* Step k as it begins (moves []), or with the learner's move tried (moves [text]). */
    async function load(k, moves) {
      S.busy = true;
      try {
        const res = await api("POST", "/api/tutorial/" + gameId + "/" + k, { moves: moves || [], lang: lang() });
        S.index = k; S.step = res; S.error = "";
        S.filter = null; S.picked = null; S.finished = false;
      } catch (e) { S.error = e.message; }
      S.busy = false;
      address();
      draw();
    }

    function tryMove(text) {
      if (S.busy || !S.step || S.step.done) return;
      load(S.index, [text]).then(() => {
        const say = document.getElementById("tut-say"); if (say) say.focus({ preventScroll: false });
      });
    }

    function choose(texts, pick) {
      const legal = new Set(S.step.payload.legal.map(l => l.text));
      const ok = (texts || []).filter(x => legal.has(x));
      if (ok.length === 1) tryMove(ok[0]);
      else if (ok.length > 1) { S.filter = ok; S.picked = pick === undefined ? null : pick; draw(); }
    }

    function header() {
      return el("header", { class: "top tut-top" },
        el("h1", {}, el("a", { href: "/?lang=" + lang(), class: "home" }, "tablero"), " · ",
          S.meta ? S.meta.heading : ""),
        el("a", { class: "rules-link", id: "tut-rules", href: "/rules/" + gameId + "?lang=" + lang(), target: "_blank",
          rel: "noopener", title: t("rules.open") }, t("tutorial.rules")),
        langSwitch(async () => { await loadWords(); await load(S.index, S.step ? S.step.moves : []); }));
    }

    /* The steps as a row of numbered buttons (jump to any); the current one marked. */
    function stepList() {
      return el("ol", { class: "tut-steps", "aria-label": t("tutorial.steps") }, S.meta.steps.map(s => el("li", {},
        el("button", {
          type: "button", class: "tut-stepbtn" + (s.index === S.index && !S.finished ? " current" : ""),
          "aria-current": s.index === S.index && !S.finished ? "step" : null, title: s.title, "data-step": s.index,
          onclick: () => load(s.index, []),
        }, String(s.index + 1)))));
    }

    function movesBox(p) {
      const box = el("div", { class: "tut-moves" });
      if (S.step.done || !p.legal.length) return box;
      const list = S.filter ? p.legal.filter(l => S.filter.includes(l.text)) : p.legal;
      box.append(el("h3", {}, t("tutorial.moves")));
      if (S.filter) {
        box.append(el("button", { type: "button", class: "link", id: "tut-all-moves",
          onclick: () => { S.filter = null; S.picked = null; draw(); } }, t("tutorial.all_moves")));
      }
      box.append(el("ul", { class: "moves" }, list.map(l => el("li", {},
        el("button", { type: "button", class: "move", "data-action": l.text, disabled: S.busy,
          onclick: () => tryMove(l.text) }, l.label)))));
      return box;
    }

    function logBox(p) {
      if (!p.log.length) return null;
      return el("div", { class: "tut-log" }, el("h3", {}, t("tutorial.log")),
        el("ol", { class: "log" }, p.log.map(l => el("li", { class: l.section ? "section" : null },
          el("span", { class: "t" }, l.text)))));
    }

    function panel() {
      const st = S.step, last = S.index === st.count - 1;
      const box = el("section", { class: "tut-panel", "aria-label": st.title });
      box.append(el("p", { class: "tut-progress", id: "tut-progress" },
        t("tutorial.step", { n: S.index + 1, count: st.count })), stepList());
      if (S.index === 0 && !st.done) box.append(el("p", { class: "tut-intro" }, S.meta.intro));
      box.append(el("h2", { id: "tut-title" }, st.title),
        el("div", { class: "tut-task" }, el("span", { class: "tut-label" }, t("tutorial.task")),
          el("p", { id: "tut-task" }, st.task)));
      if (st.say) {
        box.append(el("div", {
          class: "tut-say " + (st.accepted ? "right" : "wrong"), id: "tut-say", role: "status", tabindex: "-1",
          "data-accepted": String(!!st.accepted),
        }, el("strong", {}, st.accepted ? t("tutorial.right") : t("tutorial.wrong")), " ", st.say));
      }
      if (S.error) box.append(el("p", { class: "error", role: "alert" }, S.error));
      const nav = el("div", { class: "tut-nav" });
      if (st.done) {
        nav.append(el("button", { type: "button", class: "primary", id: "tut-next",
          onclick: () => { if (last) { S.finished = true; draw(); } else load(S.index + 1, []); } },
        last ? t("tutorial.finish_button") : t("tutorial.next")));
        nav.append(el("button", { type: "button", class: "link", id: "tut-again", onclick: () => load(S.index, []) },
          t("tutorial.again")));
      }
      if (S.index > 0) {
        nav.append(el("button", { type: "button", class: "link", id: "tut-prev", onclick: () => load(S.index - 1, []) },
          t("tutorial.prev")));
      }
      box.append(nav, movesBox(st.payload));
      const log = logBox(st.payload); if (log) box.append(log);
      return box;
    }

    function finishCard() {
      return el("section", { class: "tut-panel tut-finish card", id: "tut-finish" },
        stepList(),
        el("h2", {}, t("tutorial.finish_title")),
        el("p", {}, t("tutorial.finish")),
        el("p", { class: "tut-nav" },
          el("a", { class: "button primary", id: "tut-play", href: "/?lang=" + lang() + "#create" }, t("tutorial.play")), " ",
          el("a", { class: "button", href: "/rules/" + gameId + "?lang=" + lang() }, t("tutorial.rules")), " ",
          el("button", { type: "button", class: "link", id: "tut-restart", onclick: () => load(0, []) },
            t("tutorial.restart"))));
    }

    function seatBar(p) {
      const v = p.view.public || p.view;
      const score = (i) => { for (const k of ["scores", "vp", "score"]) if (Array.isArray(v[k])) return v[k][i]; return null; };
      return el("ol", { class: "seatbar tut-seats" }, p.seats.map((s, i) => el("li", {
        class: "seat seat-" + i + (p.pending.includes(i) && !p.result ? " to-act" : "") + (i === p.viewer ? " me" : ""),
        style: "--seat:" + s.colour,
      }, el("span", { class: "letter", "aria-hidden": "true" }, s.letter), el("span", { class: "name" }, s.name),
      score(i) !== null ? el("span", { class: "score" }, String(score(i))) : null)));
    }

    function draw() {
      const focused = BoardKit.focusKey(app.querySelector(".tut-board"));
      app.replaceChildren(header());
      if (!S.meta || !S.step) {
        app.append(el("p", { class: S.error ? "error" : "loading", role: S.error ? "alert" : null },
          S.error || t("tutorial.loading")));
        return;
      }
      app.dataset.step = String(S.index);
      app.dataset.done = String(!!S.step.done && !S.finished);
      const layout = el("main", { class: "tut-layout" });
      const p = S.step.payload;
      if (S.finished) {
        layout.append(finishCard());
        app.append(layout);
        app.dataset.done = "finished";
        return;
      }
      const board = el("section", { class: "board tut-board", "aria-label": S.meta.title });
      layout.append(panel(), el("div", { class: "tut-main" }, seatBar(p), board));
      app.append(layout);
      const presenter = (window.TableroBoards || {})[gameId];
      try {
        const kit = BoardKit.create(board, p, {
          lang: lang(), cat: S.cat, data: S.data, log: p.log, ui: t, filter: S.filter, picked: S.picked,
          selected: null, choose,
          unpick: () => { S.filter = null; S.picked = null; draw(); },
        });
        if (presenter) presenter.render(board, p, kit);
        else board.append(el("pre", {}, JSON.stringify(p.view, null, 1)));
        BoardKit.refocus(board, focused);
      } catch (e) {
        board.append(el("p", { class: "error" }, "board: " + e.message));
        console.error(e);
      }
    }

    await loadUI();
    draw();
    try {
      S.data = await api("GET", "/api/table-data/" + gameId);
      await loadWords();
    } catch (e) { S.error = e.message; draw(); return; }
    S.index = Math.min(fromHash(), S.meta.steps.length - 1);
    await load(S.index, []);
    window.addEventListener("hashchange", () => {
      const k = Math.min(fromHash(), S.meta.steps.length - 1);
      if (k !== S.index) load(k, []);
    });
  };
})();
