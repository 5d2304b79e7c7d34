/* Don Carlo table drawing (board presenter). Plain ES2020, no modules, no libraries.
 * Contract: window.TableroBoards["don-carlo"].render(root, payload, kit) (kit: boardkit.js).
 *
 * Draws from `payload.view` (tablero/games/doncarlo/view.py), which has three parts:
 * `public` (the same for every viewer): the countries in play with their accepted digit
 * sums, majority points and agents (code + owner), every seat's hand size (known cards face
 * up), deck size, influence / bonus / country points / total, out states, final ranks;
 * `private` (null for a spectator): the viewer's own hand; `deciding`: phase, turn, blocked.
 * Who leads each country is worked out here from the agents.
 *
 * A legal play is {kind: "play", code: "0/1/4", values: [0, 1, 4]}; the code's digit sum
 * selects the country whose accepted sums (in the view) contain it (rules §3.1).
 */
(function () {
  "use strict";

  const LABELS = {
    en: {
      table: "Countries",
      hand: "Your hand",
      players: "Families",
      sums: "digit sum",
      majority: "majority",
      reconstructed: "reconstructed value",
      next: "next agent +{n}",
      noAgents: "no agents yet",
      leads: "leads",
      tie: "tie",
      agents: "{n} agents",
      agentsOne: "1 agent",
      influence: "influence",
      bonus: "bonus",
      countries: "countries",
      points: "points",
      handSize: "hand",
      deck: "deck",
      deckEmpty: "empty",
      you: "you",
      turn: "to move",
      yourTurn: "Your turn: pick a card or a country",
      turnOf: "Turn:",
      blocked: "blocked",
      blockedNote: "{seat} is blocked: shows their hand and draws in the open",
      blockedYou: "You are blocked: your hand is shown and you draw in the open",
      out: "out",
      winner: "Winner:",
      winners: "Winners:",
      rank: "rank {r}",
      run: "run +{n}",
      triple: "triple +{n}",
      possible: "possible",
      cardAria: "Card {v}: {n} possible agents",
      cardAriaOne: "Card {v}: 1 possible agent",
      cardAriaNone: "Card {v}: no agent possible",
      countryAria: "{name}: {n} possible agents ({codes})",
      countryAriaOne: "{name}: 1 possible agent ({codes})",
      agentTitle: "{seat}: agent {code}, {k}. agent here (+{k} influence){b}",
      last: "last move",
      known: "known",
      unknown: "hidden card",
      spectator: "Spectator view",
      phase: {
        deal: "Dealing", start: "Choosing the start player", play: "Send an agent",
        refill: "Refilling the hand", blocked_draw: "Blocked: drawing in the open", over: "Game over",
      },
      tieRule: {
        all_full: "Majority ties: all tied families score in full",
        split_floor: "Majority ties: points split, rounded down",
        none: "Majority ties: nobody scores",
      },
    },
    de: {
      table: "Länder",
      hand: "Deine Hand",
      players: "Familien",
      sums: "Ziffernsumme",
      majority: "Mehrheit",
      reconstructed: "rekonstruierter Wert",
      next: "nächster Agent +{n}",
      noAgents: "noch keine Agenten",
      leads: "führt",
      tie: "Gleichstand",
      agents: "{n} Agenten",
      agentsOne: "1 Agent",
      influence: "Einfluss",
      bonus: "Bonus",
      countries: "Länder",
      points: "Punkte",
      handSize: "Hand",
      deck: "Stapel",
      deckEmpty: "leer",
      you: "du",
      turn: "am Zug",
      yourTurn: "Du bist am Zug: wähle eine Karte oder ein Land",
      turnOf: "Am Zug:",
      blocked: "blockiert",
      blockedNote: "{seat} ist blockiert: deckt die Hand auf und zieht offen",
      blockedYou: "Du bist blockiert: Du deckst deine Hand auf und ziehst offen",
      out: "ausgeschieden",
      winner: "Sieger:",
      winners: "Sieger:",
      rank: "Platz {r}",
      run: "Folge +{n}",
      triple: "Drilling +{n}",
      possible: "möglich",
      cardAria: "Karte {v}: {n} mögliche Agenten",
      cardAriaOne: "Karte {v}: 1 möglicher Agent",
      cardAriaNone: "Karte {v}: kein Agent möglich",
      countryAria: "{name}: {n} mögliche Agenten ({codes})",
      countryAriaOne: "{name}: 1 möglicher Agent ({codes})",
      agentTitle: "{seat}: Agent {code}, {k}. Agent hier (+{k} Einfluss){b}",
      last: "letzter Zug",
      known: "bekannt",
      unknown: "verdeckte Karte",
      spectator: "Zuschaueransicht",
      phase: {
        deal: "Austeilen", start: "Startspieler wird bestimmt", play: "Agent schicken",
        refill: "Nachziehen", blocked_draw: "Blockiert: offenes Ziehen", over: "Spielende",
      },
      tieRule: {
        all_full: "Gleichstand bei Mehrheiten: alle Beteiligten erhalten die vollen Punkte",
        split_floor: "Gleichstand bei Mehrheiten: Punkte geteilt, abgerundet",
        none: "Gleichstand bei Mehrheiten: niemand punktet",
      },
    },
  };

  // Countries whose majority points are a reconstruction: kit.data (Game.table_data).
  let RECONSTRUCTED = new Set();
  // The table's bonus points for a run and a triple (kit.data: its data overrides, usually 1 and 2).
  let BONUS = { run: 1, triple: 2 };

  const SVGNS = "http://www.w3.org/2000/svg";
  let fill = null;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  /* "What does this do?": a small "?" linking an entry of the rules page (/rules/don-carlo#anchor,
   * rules.<lang>.md) in a new tab. Its clicks never reach the clickable country around it. */
  /* A label in number: `L[key + "One"]` for exactly one, else `L[key]`, filled with params. */
  function count(L, key, params) { return fill(params.n === 1 && L[key + "One"] ? L[key + "One"] : L[key], params); }
  function help(kit, anchor, label) { return kit.rulesLink ? kit.rulesLink(anchor, label) : null; }
  const PHASE_HELP = { deal: "setup", start: "setup", play: "turn", refill: "influence", blocked_draw: "blocked", over: "end" };

  function svgIcon(kind, cls) {
    const s = document.createElementNS(SVGNS, "svg");
    s.setAttribute("viewBox", "0 0 24 24");
    s.setAttribute("aria-hidden", "true");
    s.setAttribute("class", "dc-icon " + (cls || ""));
    const p = document.createElementNS(SVGNS, "path");
    if (kind === "crown") {
      p.setAttribute("d", "M3 7l4.5 4L12 4l4.5 7L21 7l-2 12H5z");
    } else if (kind === "star") {
      p.setAttribute("d", "M12 2l2.9 6.6 7.1.6-5.4 4.7 1.6 7L12 17.3 5.8 21l1.6-7L2 9.2l7.1-.6z");
    } else if (kind === "play") {
      p.setAttribute("d", "M6 4l14 8-14 8z");
    }
    s.appendChild(p);
    return s;
  }

  function codeValues(text) {
    return text.split("/").map(Number);
  }

  /* A code's kind: "run" (a/a+1/a+2), "triple" (a/a/a) or null: only 3-card codes earn a bonus. */
  function codeKind(vals) {
    if (vals.length !== 3) return null;
    const v = vals.slice().sort((a, b) => a - b);
    if (v[0] === v[1] && v[1] === v[2]) return "triple";
    if (v[1] === v[0] + 1 && v[2] === v[1] + 1) return "run";
    return null;
  }

  /* The bonus points of an agent on the table (its star), for the view's codes. */
  function codeBonus(vals) {
    const kind = codeKind(vals);
    return kind ? BONUS[kind] : 0;
  }

  function sumsText(sums) {
    if (!sums.length) return "";
    const lo = sums[0];
    const hi = sums[sums.length - 1];
    const contiguous = sums.every((s, i) => s === lo + i);
    if (sums.length > 2 && contiguous) return lo + "–" + hi;
    return sums.join(", ");
  }

  function seatStyle(node, seat) {
    node.style.setProperty("--dc-c", seat.colour);
    node.style.setProperty("--dc-ct", seat.ink);
  }

  function seatDisc(seat, cls) {
    const d = el("span", "dc-disc " + (cls || ""), seat.letter);
    seatStyle(d, seat);
    d.setAttribute("aria-hidden", "true");
    return d;
  }


  /* One playing card. `value` null = face down. */
  function card(seat, value, size, extraCls) {
    const c = el("span", "dc-card dc-card-" + size + (value === null ? " dc-back" : " dc-face") +
      (extraCls ? " " + extraCls : ""));
    seatStyle(c, seat);
    if (value === null) {
      c.appendChild(el("span", "dc-back-letter", seat.letter));
    } else {
      if (size === "big") {
        c.appendChild(el("span", "dc-corner dc-tl", value));
        c.appendChild(el("span", "dc-corner dc-bl", value));
      }
      c.appendChild(el("span", "dc-val", value));
      c.appendChild(el("span", "dc-fam", seat.letter));
    }
    return c;
  }

  /* The agent sent last: the newest play line of the log ("dc.play": seat, code, country,
   * influence = its place in the country's row), if that agent still stands there. */
  function findLast(pub, log) {
    for (let i = log.length - 1; i >= 0; i--) {
      const m = log[i].msg;
      if (!m || m.id !== "dc.play") continue;
      const p = m.params || {};
      const cid = p.country && p.country.message ? p.country.message.id.replace(/^dc\.country\./, "") : null;
      const ci = pub.countries.findIndex((c) => c.id === cid);
      const k = p.influence - 1;
      const a = ci >= 0 ? pub.countries[ci].agents[k] : null;
      return a && a[0] === p.seat && a[1] === p.code ? { ci, k } : null;
    }
    return null;
  }

  function render(root, payload, kit) {
    RECONSTRUCTED = new Set(kit.data.reconstructed || []);
    const num = (x, usual) => (typeof x === "number" ? x : usual);
    BONUS = { run: num(kit.data.run_bonus, 1), triple: num(kit.data.triple_bonus, 2) };
    fill = kit.fill;
    const lang = kit.lang;
    const L = kit.words(LABELS);
    const view = kit.view;
    const pub = view.public || {};  // what every viewer sees alike
    const dec = view.deciding || {};  // who decides what now
    const myHand = view.private ? view.private.hand : null;  // the viewer's own hand
    const n = pub.players || kit.seats.length;
    const seats = [];
    for (let i = 0; i < n; i++) seats.push(kit.seat(i));
    const viewer = kit.viewer;
    const over = dec.phase === "over";
    const countries = pub.countries || [];
    const cname = (c) => kit.msg("dc.country." + c.id, {}, c.id);

    // Legal plays, each with the country its digit sum goes to.
    const plays = kit.moves({ kind: "play" }).map((m) => {
      const vals = m.action.values;
      const sum = vals.reduce((a, b) => a + b, 0);
      const ci = countries.findIndex((c) => c.sums.indexOf(sum) >= 0);
      return { move: m, code: m.action.code, vals: vals, ci: ci, bonus: codeBonus(vals) };
    });

    const last = findLast(pub, kit.log);

    root.innerHTML = "";
    const wrap = el("div", "dc-wrap");
    const board = el("div", "dc-board");
    board.setAttribute("lang", lang);
    wrap.appendChild(board);
    root.appendChild(wrap);

    /* ---- status strip ---- */
    const status = el("div", "dc-status");
    status.appendChild(el("span", "dc-phase", (L.phase[dec.phase] || dec.phase || "")));
    const phaseHelp = PHASE_HELP[dec.phase] ? help(kit, PHASE_HELP[dec.phase], L.phase[dec.phase]) : null;
    if (phaseHelp) status.appendChild(phaseHelp);
    const active = !over && dec.phase !== "deal" && dec.phase !== "start" &&
      typeof dec.turn === "number" && dec.turn >= 0 && dec.turn < n;
    const myTurn = viewer !== null && viewer !== undefined &&
      kit.pending.indexOf(viewer) >= 0 && plays.length > 0;
    if (active) {
      const t = el("span", "dc-turn");
      t.appendChild(el("span", "dc-turn-label", L.turnOf));
      t.appendChild(kit.chip(dec.turn, { name: true }));
      status.appendChild(t);
    }
    if (myTurn) status.appendChild(el("span", "dc-yourturn", L.yourTurn));
    if (dec.blocked !== null && dec.blocked !== undefined && seats[dec.blocked]) {
      status.appendChild(el("span", "dc-blocknote", dec.blocked === viewer ? L.blockedYou
        : fill(L.blockedNote, { seat: seats[dec.blocked].name })));
    }
    if (over) {
      const ranks = pub.ranks || (payload.result && payload.result.ranks) || null;
      if (ranks) {
        const win = [];
        ranks.forEach((r, i) => { if (r === 1) win.push(i); });
        const w = el("span", "dc-winners");
        w.appendChild(svgIcon("crown", "dc-crown"));
        w.appendChild(el("span", null, win.length > 1 ? L.winners : L.winner));
        win.forEach((i) => w.appendChild(kit.chip(i, { name: true })));
        status.appendChild(w);
      }
    }
    if (viewer === null || viewer === undefined) {
      status.appendChild(el("span", "dc-spectator", L.spectator));
    }
    board.appendChild(status);

    /* ---- countries (the table) ---- */
    const table = el("div", "dc-table dc-c" + countries.length);
    table.setAttribute("role", "group");
    table.setAttribute("aria-label", L.table);
    const tiles = [];
    countries.forEach((c, ci) => {
      const tile = el("div", "dc-country");
      tile.dataset.ci = String(ci);
      tile.setAttribute("data-anim-frame", "country-" + c.id);  // animations (BoardKit.animate)
      tiles.push(tile);
      const head = el("div", "dc-chead");
      const nameEl = el("div", "dc-cname", cname(c));
      nameEl.title = cname(c);
      head.appendChild(nameEl);
      const countryHelp = help(kit, "country-" + c.id, cname(c));
      if (countryHelp) head.appendChild(countryHelp);
      const meta = el("div", "dc-cmeta");
      const sums = el("span", "dc-sums");
      sums.title = L.sums;
      sums.appendChild(el("span", "dc-sigma", "Σ"));
      sums.appendChild(el("span", null, sumsText(c.sums)));
      meta.appendChild(sums);
      const pts = el("span", "dc-points");
      // "R" marks a reconstructed usual value, not points the table chose in the lobby
      const usual = (kit.data.default_points || {})[c.id];
      const recon = RECONSTRUCTED.has(c.id) && (usual === undefined || usual === c.points);
      pts.title = L.majority + (recon ? " (" + L.reconstructed + ")" : "");
      pts.appendChild(svgIcon("crown", "dc-crown"));
      pts.appendChild(el("span", "dc-points-n", c.points));
      if (recon) pts.appendChild(el("sup", "dc-r", "R"));
      meta.appendChild(pts);
      head.appendChild(meta);
      tile.appendChild(head);

      // majority standing
      const counts = new Array(n).fill(0);
      c.agents.forEach((a) => { if (a[0] >= 0 && a[0] < n) counts[a[0]] += 1; });
      const max = Math.max(0, ...counts);
      const leaders = [];
      counts.forEach((k, i) => { if (max > 0 && k === max) leaders.push(i); });
      const tally = el("div", "dc-tally");
      if (max === 0) {
        tally.appendChild(el("span", "dc-empty", L.noAgents));
      } else {
        counts.forEach((k, i) => {
          if (!k) return;
          const lead = leaders.indexOf(i) >= 0;
          const t = el("span", "dc-tal" + (lead ? " dc-lead" : ""));
          seatStyle(t, seats[i]);
          if (lead) t.appendChild(svgIcon("crown", "dc-crown"));
          t.appendChild(el("span", "dc-tal-l", seats[i].letter));
          t.appendChild(el("span", "dc-tal-n", "×" + k));
          t.title = seats[i].name + ": " + count(L, "agents", { n: k }) +
            (lead ? " — " + (leaders.length > 1 ? L.tie : L.leads) : "");
          tally.appendChild(t);
        });
        const who = el("span", "dc-leadtext",
          leaders.length > 1 ? L.tie : L.leads + ": " + seats[leaders[0]].letter);
        tally.appendChild(who);
      }
      tile.appendChild(tally);

      // agents, in the order sent
      const list = el("div", "dc-agents");
      c.agents.forEach((a, k) => {
        const s = kit.seat(a[0]);
        const ag = el("span", "dc-agent");
        seatStyle(ag, s);
        // a new agent comes from its family's hand (the viewer's: from a card of its code)
        ag.setAttribute("data-anim", "agent-" + c.id + "-" + k);
        ag.setAttribute("data-anim-from", (a[0] === viewer ? "dccard-" + codeValues(a[1])[0] + "-1 " : "") +
          "dchand-" + a[0] + " dcmini-" + a[0]);
        ag.appendChild(el("span", "dc-agent-l", s.letter));
        ag.appendChild(el("span", "dc-agent-code", a[1]));
        const kind = codeKind(codeValues(a[1]));
        const b = kind ? BONUS[kind] : 0;
        if (b) {
          const bb = el("span", "dc-agent-b");
          bb.appendChild(svgIcon("star"));
          ag.appendChild(bb);
        }
        ag.appendChild(el("span", "dc-agent-k", "+" + (k + 1)));
        const isLast = last && last.ci === ci && last.k === k;
        if (isLast) {
          ag.classList.add("last");
          tile.classList.add("last");
        }
        ag.title = fill(L.agentTitle, { seat: s.name, code: a[1], k: k + 1,
          b: b ? ", " + fill(L[kind], { n: b }) : "" }) +
          (isLast ? " — " + L.last : "");
        list.appendChild(ag);
      });

      // legal plays to this country (previews)
      tile.appendChild(list);
      const mine = plays.filter((p) => p.ci === ci);
      if (mine.length && viewer !== null && viewer !== undefined) {
        const vs = seats[viewer];
        const poss = el("div", "dc-poss");
        poss.appendChild(el("span", "dc-poss-l", L.possible));
        mine.forEach((p) => {
          const g = el("span", "dc-agent dc-ghost");
          seatStyle(g, vs);
          g.dataset.vals = p.vals.join(",");
          g.appendChild(el("span", "dc-agent-l", vs.letter));
          g.appendChild(el("span", "dc-agent-code", p.code));
          if (p.bonus) {
            const bb = el("span", "dc-agent-b");
            bb.appendChild(svgIcon("star"));
            g.appendChild(bb);
          }
          g.appendChild(el("span", "dc-agent-k", "+" + (c.agents.length + 1)));
          poss.appendChild(g);
        });
        tile.appendChild(poss);
      }

      if (!over) {
        tile.appendChild(el("div", "dc-next", fill(L.next, { n: c.agents.length + 1 })));
      }

      if (mine.length) {
        kit.place(tile, mine.map((p) => p.move), { label: count(L, "countryAria", { name: cname(c), n: mine.length,
          codes: mine.map((p) => p.code).join(", ") }) });
        tile.dataset.vals = Array.from(new Set([].concat(...mine.map((p) => p.vals)))).join(",");
      }
      table.appendChild(tile);
    });
    board.appendChild(table);

    /* ---- own hand ---- */
    const lower = el("div", "dc-lower");
    board.appendChild(lower);
    let handCards = [];
    if (myHand && viewer !== null && viewer !== undefined && seats[viewer] && !over) {
      const sec = el("section", "dc-handsec");
      sec.setAttribute("data-anim-frame", "hand");
      seatStyle(sec, seats[viewer]);
      const h = el("div", "dc-sechead");
      h.appendChild(el("span", "dc-sectitle", L.hand));
      const handHelp = help(kit, "codes", L.hand);
      if (handHelp) h.appendChild(handHelp);
      h.appendChild(el("span", "dc-deckinfo",
        L.deck + " " + (pub.deck_sizes ? pub.deck_sizes[viewer] : "?")));
      sec.appendChild(h);
      const row = el("div", "dc-hand");
      row.setAttribute("data-anim-origin", "dchand-" + viewer);
      row.setAttribute("data-anim-frame", "dchand");
      const nth = {};  // a card's key: its value and which of the equal ones it is
      myHand.forEach((v) => {
        const uses = plays.filter((p) => p.vals.indexOf(v) >= 0);
        const c = card(seats[viewer], v, "big");
        c.dataset.v = String(v);
        c.setAttribute("data-anim", "dccard-" + v + "-" + (nth[v] = (nth[v] || 0) + 1));
        c.setAttribute("data-anim-from", "dcdeck-" + viewer);
        if (uses.length) {
          kit.place(c, uses.map((p) => p.move), { label: count(L, "cardAria", { v: v, n: uses.length }) });
          c.dataset.cis = Array.from(new Set(uses.map((p) => p.ci))).join(",");
        } else {
          c.setAttribute("aria-label", fill(L.cardAriaNone, { v: v }));
          if (myTurn) c.classList.add("dc-dim");
        }
        handCards.push(c);
        row.appendChild(c);
      });
      if (!myHand.length) row.appendChild(el("span", "dc-empty", "—"));
      sec.appendChild(row);
      lower.appendChild(sec);
    }

    // cross-highlighting: a hand card shows its countries and codes, a country its cards
    const clearHl = () => {
      board.querySelectorAll(".dc-target").forEach((x) => x.classList.remove("dc-target"));
    };
    handCards.forEach((c) => {
      if (!c.dataset.cis) return;
      const on = () => {
        clearHl();
        const v = c.dataset.v;
        c.dataset.cis.split(",").forEach((ci) => tiles[+ci] && tiles[+ci].classList.add("dc-target"));
        board.querySelectorAll(".dc-ghost").forEach((g) => {
          if (g.dataset.vals.split(",").indexOf(v) >= 0) g.classList.add("dc-target");
        });
      };
      c.addEventListener("mouseenter", on);
      c.addEventListener("focus", on);
      c.addEventListener("mouseleave", clearHl);
      c.addEventListener("blur", clearHl);
    });
    tiles.forEach((t) => {
      if (!t.dataset.vals) return;
      const on = () => {
        clearHl();
        const vs = t.dataset.vals.split(",");
        handCards.forEach((c) => { if (vs.indexOf(c.dataset.v) >= 0) c.classList.add("dc-target"); });
      };
      t.addEventListener("mouseenter", on);
      t.addEventListener("focus", on);
      t.addEventListener("mouseleave", clearHl);
      t.addEventListener("blur", clearHl);
    });

    /* ---- families (seats) ---- */
    const fams = el("div", "dc-seats dc-n" + n);
    fams.setAttribute("role", "group");
    fams.setAttribute("aria-label", L.players);
    const ranks = pub.ranks || (over && payload.result && payload.result.ranks) || null;
    for (let i = 0; i < n; i++) {
      const s = seats[i];
      const box = el("div", "dc-seat");
      seatStyle(box, s);
      box.setAttribute("data-anim-frame", "seat-" + i);
      const isTurn = active && dec.turn === i;
      if (isTurn) box.classList.add("dc-active");
      if (!over && pub.out && pub.out[i]) box.classList.add("dc-out");
      if (dec.blocked === i) box.classList.add("dc-isblocked");
      if (i === viewer) box.classList.add("dc-me");

      const top = el("div", "dc-seattop");
      top.appendChild(seatDisc(s, "dc-disc-big"));
      const nm = el("div", "dc-seatnm");
      nm.appendChild(el("span", "dc-seatname", s.name));
      const badges = el("span", "dc-badges");
      if (i === viewer) badges.appendChild(el("span", "dc-badge dc-b-you", L.you));
      if (isTurn) {
        const b = el("span", "dc-badge dc-b-turn");
        b.appendChild(svgIcon("play"));
        b.appendChild(document.createTextNode(L.turn));
        badges.appendChild(b);
      }
      if (dec.blocked === i) badges.appendChild(el("span", "dc-badge dc-b-blocked", L.blocked));
      if (!over && pub.out && pub.out[i]) badges.appendChild(el("span", "dc-badge dc-b-out", L.out));
      if (ranks && ranks[i]) {
        const b = el("span", "dc-badge dc-b-rank" + (ranks[i] === 1 ? " dc-b-win" : ""));
        if (ranks[i] === 1) b.appendChild(svgIcon("crown", "dc-crown"));
        b.appendChild(document.createTextNode(fill(L.rank, { r: ranks[i] })));
        badges.appendChild(b);
      }
      nm.appendChild(badges);
      top.appendChild(nm);
      const sc = el("div", "dc-score");
      sc.appendChild(el("span", "dc-score-n", pub.scores ? pub.scores[i] : 0));
      sc.appendChild(el("span", "dc-score-l", L.points));
      top.appendChild(sc);
      box.appendChild(top);

      const br = el("div", "dc-breakdown");
      const part = (label, v) => {
        const p = el("span", "dc-part");
        p.appendChild(el("span", "dc-part-l", label));
        p.appendChild(el("span", "dc-part-n", v));
        return p;
      };
      br.appendChild(part(L.influence, pub.influence ? pub.influence[i] : 0));
      br.appendChild(part(L.bonus, pub.bonus ? pub.bonus[i] : 0));
      br.appendChild(part(L.countries, pub.country_points ? pub.country_points[i] : 0));
      box.appendChild(br);

      const cardsRow = el("div", "dc-seatcards");
      const hs = pub.hand_sizes ? pub.hand_sizes[i] : 0;
      const hand = el("div", "dc-minihand");
      hand.appendChild(el("span", "dc-mini-l", L.handSize + " " + hs));
      const cards = el("span", "dc-minicards");
      cards.setAttribute("data-anim-origin", "dcmini-" + i);
      cards.setAttribute("data-anim-frame", "dcmini-" + i);
      const nthMini = {};
      let faces = null;
      let hidden = 0;
      if (pub.hands && pub.hands[i]) {
        faces = pub.hands[i];
      } else if (i === viewer && myHand) {
        faces = myHand;
      } else {
        faces = (pub.known && pub.known[i]) || [];
        hidden = Math.max(0, hs - faces.length);
      }
      faces.forEach((v) => {
        const kc = card(s, v, "mini", i !== viewer && !(pub.hands && pub.hands[i]) ? "dc-known" : "");
        kc.title = i !== viewer ? L.known + ": " + v : String(v);
        kc.setAttribute("data-anim", "dcmini-" + i + "-" + v + "-" + (nthMini[v] = (nthMini[v] || 0) + 1));
        kc.setAttribute("data-anim-from", "dcdeck-" + i);
        cards.appendChild(kc);
      });
      for (let k = 0; k < hidden; k++) {
        const bc = card(s, null, "mini");
        bc.title = L.unknown;
        bc.setAttribute("data-anim", "dcback-" + i + "-" + k);
        bc.setAttribute("data-anim-from", "dcdeck-" + i);
        cards.appendChild(bc);
      }
      hand.appendChild(cards);
      cardsRow.appendChild(hand);

      const ds = pub.deck_sizes ? pub.deck_sizes[i] : 0;
      const deck = el("div", "dc-deck" + (ds ? "" : " dc-deck-empty"));
      deck.appendChild(el("span", "dc-mini-l", L.deck));
      const stack = el("span", "dc-stack");
      stack.setAttribute("data-anim-origin", "dcdeck-" + i);
      seatStyle(stack, s);
      if (ds > 1) stack.appendChild(el("span", "dc-stack-under"));
      stack.appendChild(el("span", "dc-stack-top", ds ? ds : "0"));
      deck.appendChild(stack);
      deck.title = L.deck + ": " + (ds ? ds : L.deckEmpty);
      cardsRow.appendChild(deck);
      box.appendChild(cardsRow);

      box.setAttribute("aria-label", s.name + ": " + (pub.scores ? pub.scores[i] : 0) + " " + L.points);
      fams.appendChild(box);
    }
    lower.appendChild(fams);

    /* ---- tie rule footnote ---- */
    if (pub.tie_rule && L.tieRule[pub.tie_rule]) {
      const foot = el("div", "dc-foot", L.tieRule[pub.tie_rule]);
      const footHelp = help(kit, "options", L.tieRule[pub.tie_rule]);
      if (footHelp) foot.append(" ", footHelp);
      board.appendChild(foot);
    }
  }

  window.TableroBoards = window.TableroBoards || {};
  window.TableroBoards["don-carlo"] = { render: render };
})();
