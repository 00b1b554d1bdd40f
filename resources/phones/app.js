// The players' phones page: follows the game over Server-Sent Events. Read-only; every
// text goes in with textContent (never as HTML). No external resources.
// Two kinds of link: the table's common link (pick your vehicle; the public view only)
// and a seat link (the snapshot names its vehicle in `seat` and brings that vehicle's
// whole own sheet in `mine`: no picking, the server sends nobody else's).
// A seat link may also send requests (`phone` says what it may send now): each carries the
// page token the page came with and an idempotency key; one not answered (the connection
// lost) is kept and sent again, once, on reconnect — the key makes a retry harmless.
"use strict";
(function () {
  const TURN = { now: "▶ MOVES NOW", next: "▷ next" };
  const base = location.pathname.replace(/\/+$/, "");
  const $ = (id) => document.getElementById(id);
  let view = null;
  let source = null;
  let retry = null;
  // What arrived and when (the latency benchmark and the browser tests read it).
  window.carwarsReceived = [];
  const pageMeta = document.querySelector('meta[name="carwars-page"]');
  const pageToken = pageMeta ? pageMeta.content : "";
  const unsentKey = "carwars-unsent-" + base;

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function storageKey() { return "carwars-vehicle-" + (view && view.session !== undefined ? view.session : ""); }
  function chosen() {
    try { return localStorage.getItem(storageKey()); } catch (e) { return null; }
  }
  function choose(key) {
    try {
      if (key === null) localStorage.removeItem(storageKey()); else localStorage.setItem(storageKey(), key);
    } catch (e) { /* private browsing: chosen for this visit only */ }
    draw();
  }

  function connection(state, text) {
    const node = $("connection");
    node.className = state;
    node.textContent = text;
  }

  function facts(vehicle, numbersNode, wordsNode) {
    clear(numbersNode); clear(wordsNode);
    for (const fact of vehicle.facts) {
      if (fact.number) {
        const box = el("div", null, "fact");
        box.appendChild(el("div", fact.label, "label"));
        box.appendChild(el("div", (fact.lost ? "✖" : "") + fact.value, "value"));
        numbersNode.appendChild(box);
      } else {
        const item = el("li", (fact.lost ? "✖ " : "✔ ") + fact.label + " " + fact.value,
                        fact.lost ? "lost" : "");
        wordsNode.appendChild(item);
      }
    }
  }
  function statusText(vehicle) { return vehicle.status.map((s) => s.symbol + " " + s.word).join("   "); }
  function worst(vehicle) {
    const levels = ["info", "warning", "danger"];
    let found = 0;
    for (const s of vehicle.status) found = Math.max(found, levels.indexOf(s.level));
    return "level-" + levels[Math.max(0, found)];
  }

  function drawClock() {
    const clock = view.clock;
    $("title").textContent = view.title || "Carwars Desktop";
    $("clock").textContent = clock ? (clock.word.charAt(0).toUpperCase() + clock.word.slice(1) + " " + clock.turn + (clock.phase ? " · " + clock.phase : "")) : "No session at the table";
    const parts = [];
    if (clock && clock.now.length) parts.push("▶ Now: " + clock.now.join(", "));
    if (clock && clock.next.length) parts.push("▷ Next: " + clock.next.join(", "));
    $("turns").textContent = parts.join("   ");
    const notes = [];
    if (!view.sheets_open) {
      notes.push(seatOf() !== null
        ? "record sheets secret: your whole sheet is on this phone only; the others show what is announced at the table"
        : "record sheets secret: every phone sees only what is announced at the table (your own whole sheet is on your seat's link: ask the GM)");
    }
    if (!view.odds_shown) notes.push("odds hidden");
    $("visibility").textContent = notes.join(" · ");
  }

  function seatOf() { return view && view.seat !== undefined && view.seat !== null ? view.seat : null; }

  function drawMine(mine) {
    const seat = seatOf();
    $("picker").hidden = mine !== null || seat !== null;
    $("mine").hidden = mine === null && seat === null;
    $("change").hidden = seat !== null;
    if (mine === null && seat !== null) {
      $("mine").className = "";
      $("mine-name").textContent = "Your vehicle is not on the table yet";
      for (const id of ["mine-player", "mine-turn", "mine-status"]) $(id).textContent = "";
      clear($("mine-numbers")); clear($("mine-words"));
      return;
    }
    if (mine === null) {
      const choices = $("choices");
      clear(choices);
      for (const vehicle of view.vehicles) {
        const button = el("button", vehicle.name + (vehicle.player ? " — " + vehicle.player : ""));
        button.type = "button";
        button.dataset.key = vehicle.key;
        button.addEventListener("click", () => choose(vehicle.key));
        choices.appendChild(button);
      }
      if (!view.vehicles.length) choices.appendChild(el("p", "No vehicle is shown yet.", "muted"));
      return;
    }
    $("mine").className = (mine.turn === "now" ? "now" : "") + (mine.out ? " out" : "");
    $("mine-name").textContent = mine.name;
    $("mine-player").textContent = mine.player;
    $("mine-turn").textContent = TURN[mine.turn] || "";
    const status = $("mine-status");
    status.textContent = statusText(mine);
    status.className = "status " + worst(mine);
    facts(mine, $("mine-numbers"), $("mine-words"));
  }

  function drawRoll() {
    const roll = view.roll;
    const ids = ["roll-parties", "roll-need", "roll-odds", "roll-dice", "roll-outcome"];
    if (!roll) {
      $("roll-title").textContent = "No roll in progress";
      for (const id of ids) $(id).textContent = "";
      clear($("roll-modifiers"));
      return;
    }
    $("roll-title").textContent = roll.title;
    $("roll-parties").textContent = roll.parties.map((p) => p[0] + ": " + p[1]).join(" · ");
    const modifiers = $("roll-modifiers");
    clear(modifiers);
    for (const m of roll.modifiers) modifiers.appendChild(el("li", (m[1] >= 0 ? "+" : "") + m[1] + "  " + m[0]));
    $("roll-need").textContent = roll.need !== null ? "need " + roll.need + "+" : "";
    $("roll-odds").textContent = roll.odds;
    $("roll-dice").textContent = roll.dice.length ? "dice " + roll.dice.join(" ") : "";
    const outcome = $("roll-outcome");
    if (roll.outcome) {
      outcome.textContent = (roll.success === null ? "" : roll.success ? "✔ " : "✘ ") + roll.outcome;
      outcome.className = roll.success === false ? "level-danger" : "level-info";
    } else {
      outcome.textContent = "… waiting for the dice to be applied";
      outcome.className = "";
    }
  }

  function drawOthers(mineKey) {
    const others = $("others");
    clear(others);
    for (const vehicle of view.vehicles) {
      if (vehicle.key === mineKey) continue;
      const box = el("div", null, "other" + (vehicle.turn === "now" ? " now" : "") + (vehicle.out ? " out" : ""));
      box.dataset.key = vehicle.key;
      box.appendChild(el("div", vehicle.name, "name"));
      if (vehicle.player) box.appendChild(el("div", vehicle.player, "muted"));
      box.appendChild(el("div", statusText(vehicle), "status " + worst(vehicle)));
      const numbers = el("div", null, "numbers");
      const words = el("ul", null, "words");
      facts(vehicle, numbers, words);
      box.appendChild(numbers);
      box.appendChild(words);
      others.appendChild(box);
    }
    $("others-box").hidden = !others.firstChild;
  }

  // --- requests (a seat link only) ------------------------------------------------------
  function newKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function unsent() {
    try { return JSON.parse(localStorage.getItem(unsentKey) || "null"); } catch (e) { return null; }
  }
  function keepUnsent(request) {
    try {
      if (request === null) localStorage.removeItem(unsentKey);
      else localStorage.setItem(unsentKey, JSON.stringify(request));
    } catch (e) { /* private browsing: not kept across a reload */ }
  }
  function post(request) {
    keepUnsent(request);
    $("sent").textContent = "sending…";
    return fetch(base + "/request", {
      method: "POST", cache: "no-store", referrerPolicy: "same-origin",
      headers: { "Content-Type": "application/json", "X-Carwars-Page": pageToken },
      body: JSON.stringify(request),
    }).then((response) => response.text().then((text) => {
      keepUnsent(null);  // answered: sent, or refused for good
      if (!response.ok) $("sent").textContent = "✘ " + (text || response.statusText);
      else $("sent").textContent = "sent: waiting for the GM";
    })).catch(() => {
      $("sent").textContent = "not sent yet: will retry when back online";
      if (resendTimer === null) resendTimer = setTimeout(resend, 3000);
    });
  }
  function send(kind, values) {
    const phone = view && view.phone;
    if (!phone) return;
    post({ key: newKey(), kind: kind, turn: phone.turn, phase: phone.phase, values: values });
  }
  let resendTimer = null;
  function resend() {
    // The same request, the same key: the server answers a retry again and passes it
    // on never twice.
    resendTimer = null;
    const request = unsent();
    if (request) post(request);
  }

  function fill(select, options) {
    const before = select.value;
    const wanted = options.map((o) => o.value + "\u0000" + o.label).join("\u0001");
    if (select.dataset.options !== wanted) {
      clear(select);
      for (const o of options) {
        const option = el("option", o.label);
        option.value = o.value;
        select.appendChild(option);
      }
      select.dataset.options = wanted;
    }
    if (options.some((o) => o.value === before)) select.value = before;
  }
  function drawShots(phone) {
    const shot = phone.shot || null;
    $("shot-form").hidden = shot === null;
    const box = $("shots");
    clear(box);
    if (shot === null) return;
    fill($("shot-weapon"), shot.weapons);
    fill($("shot-target"), shot.targets);
    fill($("shot-side"), shot.sides.map((s) => ({ value: s, label: s })));
    $("shot-send").disabled = !shot.weapons.length;
    for (const declared of phone.shots || []) {
      const card = el("div", null, "shot");
      card.dataset.key = declared.key;
      card.appendChild(el("div", declared.summary, "shot-summary"));
      card.appendChild(el("div", declared.odds, "big shot-odds"));
      card.appendChild(el("div", "dice to throw: " + declared.dice_needed, "muted shot-need"));
      card.appendChild(el("div", declared.state === "accepted" ? "✔ in the phase's fire batch"
                                                             : "… waiting for the GM", "shot-state"));
      const row = el("div", null, "dice-row");
      const input = el("input");
      input.inputMode = "numeric";
      input.className = "shot-dice";
      input.placeholder = "e.g. 543";
      input.value = declared.dice || "";
      const button = el("button", declared.dice ? "Send again" : "Send the dice", "shot-dice-send");
      button.type = "button";
      button.addEventListener("click", () => send("dice", { shot: declared.key, dice: input.value.trim() }));
      row.appendChild(input);
      row.appendChild(button);
      card.appendChild(row);
      if (declared.dice) card.appendChild(el("div", "dice sent: " + declared.dice, "shot-dice-sent"));
      box.appendChild(card);
    }
  }

  function drawSend() {
    const phone = seatOf() !== null && view.phone ? view.phone : null;
    const speeds = phone && phone.speeds ? phone.speeds : null;
    $("send").hidden = phone === null || (speeds === null && !phone.shot && !phone.requests.length);
    if (phone === null) return;
    const typing = document.activeElement && document.activeElement.classList.contains("shot-dice");
    if (!typing) drawShots(phone);
    $("footer").textContent = "Your seat: you may send what the rules keep secret; the GM accepts it.";
    const box = $("speeds");
    clear(box);
    $("send-title").textContent = speeds ? "Your secret speed" : phone.shot ? "Your shot this phase" : "Your requests";
    $("send-help").hidden = !speeds;
    for (const choice of speeds || []) {
      const button = el("button", choice.label, "speed");
      button.type = "button";
      button.dataset.label = choice.label;
      button.addEventListener("click", () => send("speed", choice.values));
      box.appendChild(button);
    }
    if (speeds && phone.speed_sent) $("sent").textContent = "in: " + phone.speed_sent;
    const list = $("requests");
    clear(list);
    for (const request of phone.requests.slice().reverse()) {
      const mark = { waiting: "… ", in: "✔ ", accepted: "✔ ", refused: "✘ " }[request.state] || "";
      const text = mark + (request.summary || request.kind) + ": " + request.state
        + (request.reason ? " — " + request.reason : "");
      list.appendChild(el("li", text, "request-" + request.state));
    }
  }

  function drawWaiting() {
    const names = view.waiting_for || [];
    $("waiting").hidden = !names.length;
    $("waiting").textContent = names.length ? "Secret speeds — waiting for: " + names.join(", ") : "";
  }

  function draw() {
    if (!view) return;
    drawClock();
    const seat = seatOf();
    const key = seat !== null ? seat : chosen();
    const mine = seat !== null ? (view.mine || null) : (view.vehicles.find((v) => v.key === key) || null);
    drawMine(mine);
    drawRoll();
    drawOthers(key);
    drawWaiting();
    drawSend();
    const log = $("log");
    clear(log);
    for (const line of view.log) log.appendChild(el("li", line));
    document.body.dataset.seq = String(view.seq || 0);
  }

  function received(text) {
    view = JSON.parse(text);
    draw();
    const seen = window.carwarsReceived;
    seen.push([view.seq || 0, Date.now()]);
    if (seen.length > 5000) seen.splice(0, seen.length - 5000);
  }

  function connect() {
    retry = null;
    if (source) source.close();
    source = new EventSource(base + "/events");
    source.onopen = () => { connection("live", "live"); resend(); };
    source.onmessage = (event) => received(event.data);
    source.onerror = () => {
      connection("reconnecting", "reconnecting…");
      if (source.readyState === EventSource.CLOSED && retry === null) {
        // The browser gave up (a refusal rather than a lost connection): ask whether the
        // link still holds, then try again.
        retry = setTimeout(check, 2000);
      }
    };
  }

  function check() {
    fetch(base + "/state", { cache: "no-store" }).then((response) => {
      if (response.status === 404) {
        connection("revoked", "this link was stopped: scan the new QR code");
        retry = null;
        source.close();
        return;
      }
      connect();
    }).catch(() => { retry = setTimeout(check, 2000); });
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("change").addEventListener("click", () => choose(null));
    window.addEventListener("online", resend);
    $("shot-send").addEventListener("click", () => send("shot", {
      weapon: $("shot-weapon").value, target: $("shot-target").value,
      side: $("shot-side").value, range: $("shot-range").value.trim() }));
    connect();
  });
})();
