/*
 * Checklists: progressive enhancement.
 *
 * Every form works without this script. With it, checking an item, adding
 * one, the list's own buttons (how it is shown, Check all, Uncheck all) and
 * the Reorder screen's Up and Down happen without a full page load: the
 * form is sent with fetch (same fields, urlencoded, to the button's
 * formaction, the server's 303 followed), and the page's <main> is replaced
 * by the <main> of the page that comes back. Focus goes back where the
 * visitor was. If anything goes wrong before the server has accepted the
 * change, the form is submitted the ordinary way instead.
 *
 * That second submission may carry a change the server has already made
 * (the request timed out, or the connection broke, after the commit), so
 * every enhanced form says what it wants rather than "once more": a toggle
 * sends the state it asks for (its button's check=1 or 0), the add form the
 * state it was rendered in (nonce), a move the item to go next to (before
 * or after), and the server applies a repeat as a no-op. Hence the body
 * below includes the pressed button's name and value, as a native
 * submission does.
 *
 * On a list shown in the visitor's own order (it links to Reorder), rows
 * can also be dragged, or moved with Alt+Up and Alt+Down from any of a
 * row's controls: one POST to the item's move address per move, focus kept
 * on the moved item, and its new place said in a live region.
 *
 * The forms that change items also carry the browser's time zone
 * (browserTimeZone), which the server keeps as the visitor's when it knows
 * it and it is new: due dates are then typed and shown in the visitor's
 * own zone.
 *
 * Live updates: a page whose parts are marked data-live (the Checklist
 * screen's heading, its rows, the add form's nonce; any page opts in the
 * same way, with parts that are always there and never nested) asks for
 * its own address again every 2 s while it is visible: not while hidden,
 * and at once when shown again. It asks for location.pathname (the server
 * keeps only answers without a query) with the ETag of what it shows in
 * If-None-Match, and cache: "no-store", so the browser's cache neither
 * answers in its place nor adds a validator of its own. The first poll
 * sends none (a page cannot read its own response's headers) and compares
 * the answer's marked parts with those the page was loaded with. 304:
 * nothing to do. 200: the parts that differ are put in place by the same
 * swapper as a change's answer, focus and scroll position kept, and "List
 * updated" said in the polite live region when a part one can see
 * changed. The add form's text field and the Undo notice lie outside the
 * marked parts, so what the visitor is typing, with its caret, is never
 * touched; a part holding a field the visitor is busy in would be left
 * for the next poll. A change of the page's own takes the tag of its
 * answer, so it never comes back as an update, and a poll sent before it
 * is passed over. 5xx, 429 or no answer: the next poll waits twice as
 * long, up to a minute. Anything else (404: the list was deleted, or its
 * link revoked) stops the polling, with a notice.
 *
 * Polling rather than Server-Sent Events, measured: the backend answers a
 * poll of an unchanged page from its response memo after one stat (about
 * 4 us of CPU in bench-web, against about 75 us computed), and between
 * polls a page holds nothing, whereas a stream would hold one of the
 * backend's 64 worker threads for as long as its page is open. Through
 * nginx (scripts/bench-polling, 2 shared cores), 500 open pages (250 polls
 * a second, all 304) cost the backend 3-4% of one core and nginx 4-5%, and
 * kept 0.02 to 0.1 backend threads busy on average; the list page kept 80
 * to 100% of its throughput beside them (see docs/architecture.md).
 *
 * Offline: a toggle, an add, Check all, Uncheck all or a move that gets no
 * answer at all is queued on this device and sent when the network is back
 * (see "Changes made offline" below, queue.js, and sw.js for reading pages
 * offline).
 *
 * No inline script, no eval: it runs under the site's
 * Content-Security-Policy (script-src 'self'; connect-src 'self').
 */

/* The page's sentences in its language (ScriptPhrases on the server,
   from the same catalogue as the page), set by /phrases.LANG.js, which
   the page runs before this script: say(key, {name: value}) fills each
   {{name}}; a counted one takes its form by the language's plural rule. */
var checklistsPhrases = null;

function checklistsSay(key, values, count) {
  if (!checklistsPhrases) {
    checklistsPhrases = self.checklistsLanguagePhrases || {};
  }
  var text = checklistsPhrases[key] || "";
  if (typeof text === "object") {
    var category = "other";
    try {
      category = new Intl.PluralRules(document.documentElement.lang).select(count);
    } catch (error) {
      category = count === 1 ? "one" : "other";
    }
    text = text[category] || text.other || text.many || "";
    values = Object.assign({ count: String(count) }, values);
  }
  return text.replace(/\{\{(\w+)\}\}/g, function (tag, name) {
    return values && name in values ? values[name] : tag;
  });
}

(function () {
  "use strict";

  if (!window.fetch || !window.DOMParser || !window.URLSearchParams || !window.FormData ||
      !Element.prototype.closest) {
    return;
  }

  var pending = false;
  var announcer = null;
  var zone = browserZone();
  var ZONED_FORMS = "form.item-rows, form.add-item, form.reorder, form.item-edit";
  var ROW = "ul.items > li";

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      return "";
    }
  }

  /* The elements of `root` that match `selector`, `root` itself included. */
  function within(root, selector) {
    var found = Array.prototype.slice.call(root.querySelectorAll(selector));
    return root.matches && root.matches(selector) ? [root].concat(found) : found;
  }

  /* The hidden browserTimeZone field, in every form that changes items. */
  function addZone(root) {
    if (!zone) {
      return;
    }
    within(root, ZONED_FORMS).forEach(function (form) {
      if (!form.querySelector("input[name=browserTimeZone]")) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = "browserTimeZone";
        input.value = zone;
        form.appendChild(input);
      }
    });
  }

  /* A list shown in its own order links to Reorder: its rows may move. */
  function isReorderable(list) {
    var form = list.closest("form.item-rows");
    return !!form && !!form.querySelector("a[href$='/reorder']");
  }

  /* The row of `element` when it may be moved, else null. */
  function movableRow(element) {
    var row = element instanceof Element ? element.closest(ROW) : null;
    return row && isReorderable(row.parentNode) ? row : null;
  }

  function enableDragging(root) {
    within(root, ROW).forEach(function (row) {
      row.draggable = isReorderable(row.parentNode);
    });
  }

  function prepare(root) {
    addZone(root);
    enableDragging(root);
  }

  /* A button's formAction reads as the page's own address when it has no
     formaction attribute, so only an explicit one overrides the form's. */
  function actionOf(form, submitter) {
    return submitter && submitter.hasAttribute("formaction") ? submitter.formAction : form.action;
  }

  /* Submissions this script takes over: a toggle (a button.check), the
     add-item form, the list's buttons (sort, check-all) and the Reorder
     screen's moves. Deleting and every other form submit as usual. */
  function isEnhanced(form, submitter) {
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") {
      return false;
    }
    if (form.classList.contains("add-item")) {
      return true;
    }
    if (!submitter) {
      return false;
    }
    if (submitter.classList.contains("check")) {
      return true;
    }
    var action = actionOf(form, submitter);
    if (form.classList.contains("item-rows")) {
      return /\/(sort|check-all|uncheck-all)$/.test(action);
    }
    return form.classList.contains("reorder") && /\/move$/.test(action);
  }

  /* A polite live region outside <main>, so it survives the replacement. */
  function announce(text) {
    if (!announcer) {
      announcer = document.createElement("div");
      announcer.className = "visually-hidden";
      announcer.setAttribute("aria-live", "polite");
      document.body.appendChild(announcer);
    }
    announcer.textContent = "";
    window.setTimeout(function () {
      announcer.textContent = text;
    }, 50);
  }

  var say = checklistsSay;

  function quoted(text) {
    return say("quoted", { text: text });
  }

  /* A checklist row: its toggle, id, text and checkmark. */
  function toggleOf(row) {
    return row.querySelector("button.check");
  }

  /* The item a toggle's address names. A repeating row's toggle names
     the due date it showed after it (toggle?due=…), which the server
     checks so that a re-sent check of it is a no-op. */
  var TOGGLE = /items\/(\d+)\/toggle(?:\?|$)/;

  function idOf(row) {
    var match = TOGGLE.exec(toggleOf(row).getAttribute("formaction"));
    return match ? match[1] : "";
  }

  function textOf(row) {
    return toggleOf(row).textContent;
  }

  function isChecked(row) {
    return toggleOf(row).getAttribute("aria-pressed") === "true";
  }

  function rowWithID(main, id) {
    var rows = main.querySelectorAll("ul.items > li");
    for (var i = 0; i < rows.length; i++) {
      if (idOf(rows[i]) === id) {
        return rows[i];
      }
    }
    return null;
  }

  function position(row) {
    var rows = Array.prototype.slice.call(row.parentNode.children);
    return { position: String(rows.indexOf(row) + 1), count: String(rows.length) };
  }

  /* What to focus and say once the new <main> is in, for a submission by
     a form's button: the same control, or the one now at its place. */
  function focusPlan(form, submitter) {
    var action = actionOf(form, submitter);
    if (form.classList.contains("add-item")) {
      var text = form.elements.text ? form.elements.text.value : "";
      return function (main) {
        if (text) {
          announce(say("added", { text: text }));
        }
        return main.querySelector("form.add-item input[name=text]");
      };
    }
    if (submitter.classList.contains("check")) {
      var toggles = Array.prototype.slice.call(document.querySelectorAll("main button.check"));
      var index = toggles.indexOf(submitter);
      var toggled = (TOGGLE.exec(action) || [])[1];
      return function (main) {
        // The same item's toggle: a repeating one's address has moved on
        // with its due date.
        var fresh = main.querySelectorAll("button.check");
        for (var i = 0; i < fresh.length; i++) {
          if (toggled && (TOGGLE.exec(fresh[i].getAttribute("formaction")) || [])[1] === toggled) {
            return fresh[i];
          }
        }
        // A checked item may now be hidden: the row at its place.
        return fresh.length > 0 ? fresh[Math.min(Math.max(index, 0), fresh.length - 1)] : null;
      };
    }
    if (form.classList.contains("reorder")) {
      var item = /items\/(\d+)\/move$/.exec(action)[1];
      var up = submitter.classList.contains("up");
      var label = form.querySelector("#item-" + item + " .row-text");
      var name = label ? label.firstChild.textContent : "";
      return function (main) {
        var row = main.querySelector("#item-" + item);
        if (!row) {
          return null;
        }
        announce(say("moved", Object.assign({ text: quoted(name) }, position(row))));
        var same = row.querySelector(up ? "button.up" : "button.down");
        return same.disabled ? row.querySelector(up ? "button.down" : "button.up") : same;
      };
    }
    // The list's buttons: the same one, else the one now in its place
    // (Sort by due date becomes Show my order; Check all goes once every
    // item is checked), and what it did, in words.
    var kind = /\/(sort|check-all|uncheck-all)$/.exec(action)[1];
    var said = kind === "sort"
      ? say(submitter.value === "dueDate" ? "sortedByDueDate" : "shownInYourOrder")
      : say(kind === "check-all" ? "everyItemChecked" : "everyItemUnchecked");
    var place = Array.prototype.indexOf.call(submitter.parentNode.children, submitter);
    return function (main) {
      announce(said);
      var buttons = main.querySelectorAll("form.item-rows .bar > *");
      for (var i = 0; i < buttons.length; i++) {
        if (buttons[i].formAction === action) {
          return buttons[i];
        }
      }
      return buttons.length > 0 ? buttons[Math.min(place, buttons.length - 1)] : null;
    };
  }

  /* The ordinary submission: the server answers with a full page. */
  function submitNatively(form, submitter) {
    form.setAttribute("data-native", "");
    if (submitter && form.requestSubmit) {
      form.requestSubmit(submitter);
    } else {
      HTMLFormElement.prototype.submit.call(form);
    }
  }

  /* The fields a native submission by `submitter` sends: the form's, and
     the pressed button's name and value (FormData(form) leaves it out). */
  function bodyOf(form, submitter) {
    var body = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) {
      body.append(submitter.name, submitter.value);
    }
    return body;
  }

  /* The one swapper. Puts the elements of `next` (a page parsed from the
     server's answer) that match `selector` in place of this page's, one for
     one, and prepares them: a change's answer replaces <main>, a live
     update the parts marked data-live, less those `unchanged(index)` says
     are the same. Returns the elements now in place, or null (and replaces
     nothing) when the two pages do not have as many. */
  function swapIn(next, selector, unchanged) {
    var fresh = next.querySelectorAll(selector);
    var current = document.querySelectorAll(selector);
    if (fresh.length === 0 || fresh.length !== current.length) {
      return null;
    }
    var placed = [];
    for (var i = 0; i < fresh.length; i++) {
      if (unchanged && unchanged(i)) {
        placed.push(current[i]);
        continue;
      }
      var element = document.adoptNode(fresh[i]);
      current[i].replaceWith(element);
      prepare(element);
      placed.push(element);
    }
    if (next.title) {
      document.title = next.title;
    }
    return placed;
  }

  /* One change: POST `body` to `action`, put the answer's <main> in place
     and focus what `plan` returns for it; `fallback` submits natively. */
  function send(action, body, plan, fallback) {
    var main = document.querySelector("main");
    var accepted = false;
    var reached = false;
    if (queued.count > 0 && isQueueable(action)) {
      queueChange(action, body); // behind the changes still waiting: in order
      return;
    }
    pending = true;
    main.setAttribute("aria-busy", "true");

    fetch(action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "follow",
      headers: { Accept: "text/html" }
    })
      .then(function (response) {
        reached = true;
        if (!response.ok) {
          throw new Error("status " + response.status);
        }
        // A 2xx after the redirect: the change is made. From here on, never
        // submit again; at worst, load the resulting page.
        accepted = true;
        return response.text().then(function (html) {
          return { url: response.url, html: html, tag: response.headers.get("ETag") };
        });
      })
      .then(function (page) {
        var next = new DOMParser().parseFromString(page.html, "text/html");
        var target = new URL(page.url, location.href);
        if (!next.querySelector("main") || target.pathname !== location.pathname) {
          location.assign(target.href);
          return;
        }
        shownByChange(next, page.tag);
        var fresh = swapIn(next, "main")[0];
        (plan(fresh) || fresh).focus();
      })
      .catch(function () {
        main.removeAttribute("aria-busy");
        if (accepted) {
          location.reload();
        } else if (!reached && isQueueable(action) && queueAddress) {
          // No answer at all: offline. Kept on this device, sent later.
          queueChange(action, body);
        } else {
          // Safe even when the first attempt was applied: see the top.
          fallback();
        }
      })
      .then(function () {
        pending = false;
      });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var submitter = event.submitter || null;
    if (!isEnhanced(form, submitter) || form.hasAttribute("data-native")) {
      return;
    }
    event.preventDefault();
    if (pending) {
      return; // one change at a time, in the order the visitor made them
    }
    send(actionOf(form, submitter), bodyOf(form, submitter), focusPlan(form, submitter),
         function () {
           submitNatively(form, submitter);
         });
  });

  /* Moves `row` just before or after (`field`) the row `neighbour`: one
     POST to the item's move address, with the rows' form's fields (the
     CSRF token, the time zone). Focus then goes to the same control of
     the moved row, and its new place is said. */
  function move(row, field, neighbour, control) {
    var form = row.closest("form");
    var id = idOf(row);
    var text = textOf(row);
    var action = toggleOf(row).formAction.replace(/\/toggle(\?.*)?$/, "/move");
    var body = new URLSearchParams(new FormData(form));
    body.append(field, idOf(neighbour));
    send(action, body, function (main) {
      var moved = rowWithID(main, id);
      if (!moved) {
        return null;
      }
      announce(say("moved", Object.assign({ text: quoted(text) }, position(moved))));
      return moved.querySelector(control) || toggleOf(moved);
    }, function () {
      var button = document.createElement("button");
      button.type = "submit";
      button.hidden = true;
      button.setAttribute("formaction", action);
      button.name = field;
      button.value = idOf(neighbour);
      form.appendChild(button);
      submitNatively(form, button);
    });
  }

  /* The row a moved row may go next to: of the same state when checked
     items are shown last (data-move="grouped"). */
  function canMoveNextTo(row, other) {
    return !!other && other !== row && other.parentNode === row.parentNode &&
      (row.parentNode.getAttribute("data-move") !== "grouped" || isChecked(other) === isChecked(row));
  }

  document.addEventListener("keydown", function (event) {
    if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey ||
        (event.key !== "ArrowUp" && event.key !== "ArrowDown")) {
      return;
    }
    var control = event.target;
    var row = movableRow(control);
    if (!row) {
      return;
    }
    event.preventDefault();
    if (pending) {
      return;
    }
    var up = event.key === "ArrowUp";
    var neighbour = up ? row.previousElementSibling : row.nextElementSibling;
    if (!canMoveNextTo(row, neighbour)) {
      announce(say(up ? "alreadyFirst" : "alreadyLast", { text: quoted(textOf(row)) }));
      return;
    }
    // The row's edit link is its one <a>, Delete its last button (the
    // rows carry no classes for them: every byte of a row is sent).
    var kind = control.tagName === "A" ? ":scope > a"
      : control !== toggleOf(row) && control.tagName === "BUTTON" ? ":scope > button:last-child"
      : "button.check";
    move(row, up ? "before" : "after", neighbour, kind);
  });

  /* Drag and drop: a row dropped on the upper half of another goes before
     it, on the lower half after it. */
  var dragged = null;

  function clearMarks() {
    Array.prototype.forEach.call(document.querySelectorAll(".drop-before, .drop-after"),
      function (row) {
        row.classList.remove("drop-before", "drop-after");
      });
  }

  function dropTarget(event) {
    var node = event.target;
    var element = node && node.nodeType === 1 ? node : node && node.parentElement;
    var row = dragged && element ? movableRow(element) : null;
    if (!row || !canMoveNextTo(dragged, row)) {
      return null;
    }
    var box = row.getBoundingClientRect();
    return { row: row, field: event.clientY < box.top + box.height / 2 ? "before" : "after" };
  }

  document.addEventListener("dragstart", function (event) {
    var row = movableRow(event.target);
    if (!row || pending) {
      return;
    }
    dragged = row;
    row.classList.add("dragging");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", textOf(row));
  });

  document.addEventListener("dragover", function (event) {
    var target = dropTarget(event);
    clearMarks();
    if (!target) {
      return;
    }
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    target.row.classList.add(target.field === "before" ? "drop-before" : "drop-after");
  });

  document.addEventListener("drop", function (event) {
    var target = dropTarget(event);
    clearMarks();
    if (!target) {
      return;
    }
    event.preventDefault();
    var row = dragged;
    dragged = null;
    row.classList.remove("dragging");
    var unchanged = target.field === "before" ? row.nextElementSibling === target.row
      : row.previousElementSibling === target.row;
    if (!unchanged && !pending) {
      move(row, target.field, target.row, "button.check");
    }
  });

  document.addEventListener("dragend", function () {
    clearMarks();
    if (dragged) {
      dragged.classList.remove("dragging");
      dragged = null;
    }
  });

  /* Live updates: a page with parts marked data-live asks for its own
     address again every POLL_MS while it is visible, with the ETag of what
     it shows in If-None-Match (see the top). */
  var LIVE = "[data-live]";
  var POLL_MS = 2000;
  var LONGEST_WAIT_MS = 60000;
  var live = {
    shown: liveHTML(document), // before prepare() adds to the page
    tag: "", // unknown until the first answer: the first poll is unconditional
    epoch: 0, // moves with each change of this page's own, whose answer wins
    timer: 0,
    asking: false,
    failures: 0,
    stopped: false
  };

  /* The marked parts of a page as the server sent them, to tell which
     ones a newer rendering changes. */
  function liveHTML(root) {
    return Array.prototype.map.call(root.querySelectorAll(LIVE), function (part) {
      return part.outerHTML;
    });
  }

  /* A change's answer is about to be shown: polls compare with it from now
     on, and a poll under way was sent before it and is passed over. */
  function shownByChange(next, tag) {
    live.shown = liveHTML(next);
    live.tag = tag || "";
    live.epoch += 1;
  }

  var TEXT_ENTRY = /^(text|search|email|url|tel|password|number|date|datetime-local|month|week|time)$/;

  /* True while the visitor is busy with a field of `part`: it has focus,
     or it holds text not yet sent. A live update leaves the page alone
     then, and tries again at the next poll. */
  function isEditing(part) {
    return within(part, "input, textarea, select").some(function (field) {
      if (field === document.activeElement) {
        return true;
      }
      var typed = field.tagName === "TEXTAREA" || (field.tagName === "INPUT" && TEXT_ENTRY.test(field.type));
      return typed && field.value !== field.defaultValue;
    });
  }

  var CONTROLS = "a[href], button, input, select, textarea, [tabindex]";

  /* What names a control in two renderings of a page: its address, else
     its id or name. */
  function controlKey(element) {
    return element.tagName + " " + (element.getAttribute("formaction") || element.getAttribute("href") ||
      element.id || element.getAttribute("name") || "");
  }

  /* Where focus is in the marked parts, to find it again after an update:
     the part, the control's key and its place among the part's controls. */
  function focusWithin(parts) {
    var active = document.activeElement;
    for (var i = 0; i < parts.length; i++) {
      if (active && parts[i].contains(active)) {
        return { part: i, key: controlKey(active), place: within(parts[i], CONTROLS).indexOf(active) };
      }
    }
    return null;
  }

  /* The same control in the new part, else the one now at its place (the
     row below a row that went), else <main>. */
  function refocus(focus, part) {
    var controls = within(part, CONTROLS);
    var same = controls.filter(function (control) {
      return controlKey(control) === focus.key;
    })[0];
    var target = same || controls[Math.min(Math.max(focus.place, 0), controls.length - 1)] ||
      document.querySelector("main");
    target.focus({ preventScroll: true });
  }

  /* A part nobody sees (the add form's nonce): changed, it is replaced
     without a word. */
  function isUnseen(part) {
    return part.hidden || (part.tagName === "INPUT" && part.type === "hidden");
  }

  /* Shows a newer rendering `next` of this page, whose tag is `tag`: the
     marked parts that differ in place of these, focus and scroll position
     kept, and "List updated" said when one of them is seen. False when
     the page's parts no longer match (it must be reloaded). */
  function showLive(next, tag) {
    var html = liveHTML(next);
    var parts = document.querySelectorAll(LIVE);
    if (html.length !== live.shown.length || html.length !== parts.length) {
      return false;
    }
    var changed = [];
    for (var i = 0; i < parts.length; i++) {
      if (html[i] !== live.shown[i]) {
        if (isEditing(parts[i])) {
          return true; // the tag stays the old one: the next poll brings it again
        }
        changed.push(i);
      }
    }
    live.tag = tag;
    if (changed.length === 0) {
      return true;
    }
    var focus = focusWithin(parts);
    var x = window.scrollX;
    var y = window.scrollY;
    var placed = swapIn(next, LIVE, function (index) {
      return changed.indexOf(index) < 0;
    });
    live.shown = html;
    if (focus && changed.indexOf(focus.part) >= 0) {
      refocus(focus, placed[focus.part]);
    }
    if (window.scrollX !== x || window.scrollY !== y) {
      window.scrollTo(x, y);
    }
    if (changed.some(function (index) {
      return !isUnseen(placed[index]);
    })) {
      announce(say("listUpdated"));
    }
    return true;
  }

  /* Polling ends for good, with a word on the page about why. */
  function stopLive(text) {
    live.stopped = true;
    window.clearTimeout(live.timer);
    var notice = document.createElement("p");
    notice.className = "notice live-stopped";
    notice.setAttribute("role", "status");
    notice.textContent = text;
    var main = document.querySelector("main");
    main.insertBefore(notice, main.firstChild);
  }

  function schedulePoll(delay) {
    window.clearTimeout(live.timer);
    live.timer = window.setTimeout(poll, delay);
  }

  /* One poll. 304: nothing to do. 200: show what changed. 5xx, 429 or no
     answer: wait twice as long each time, up to a minute. Anything else
     (404: the list was deleted, or its link revoked): stop, and say so. */
  function poll() {
    if (live.stopped || live.asking || document.visibilityState !== "visible") {
      return;
    }
    if (pending || dragged || queued.count > 0) {
      // The change's own answer brings the page; changes made offline are
      // shown until the server has them all.
      schedulePoll(POLL_MS);
      return;
    }
    var epoch = live.epoch;
    var headers = { Accept: "text/html" };
    if (live.tag) {
      headers["If-None-Match"] = live.tag;
    }
    live.asking = true;
    fetch(location.pathname, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (response) {
        if (response.status === 304) {
          return;
        }
        if (response.status >= 500 || response.status === 429) {
          throw new Error("status " + response.status);
        }
        if (response.status !== 200) {
          stopLive(say(response.status === 404 || response.status === 410
            ? "listGone" : "liveStopped"));
          return;
        }
        return response.text().then(function (html) {
          if (epoch !== live.epoch || pending) {
            return; // older than what a change of this page's own shows
          }
          var next = new DOMParser().parseFromString(html, "text/html");
          if (!showLive(next, response.headers.get("ETag") || "")) {
            stopLive(say("pageChanged"));
          }
        });
      })
      .then(function () {
        live.failures = 0;
      }, function () {
        live.failures = Math.min(live.failures + 1, 5);
      })
      .then(function () {
        live.asking = false;
        if (!live.stopped) {
          schedulePoll(Math.min(POLL_MS * Math.pow(2, live.failures), LONGEST_WAIT_MS));
        }
      });
  }

  if (document.querySelector(LIVE)) {
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") {
        schedulePoll(0);
      } else {
        window.clearTimeout(live.timer);
      }
    });
    schedulePoll(POLL_MS);
  }


  /*
   * Changes made offline. A toggle, an add, Check all, Uncheck all or a move
   * whose request got no answer at all (no network, or the site
   * unreachable) is kept in this browser's IndexedDB (database
   * checklists-offline, store changes, in the order made; queue.js), shown
   * at once on the page (the row's new state or place; an added item in a
   * list of its own, marked as waiting; a row deleted offline, which the
   * worker queued, hidden) and sent
   * later, oldest first, one at a time: when the browser says it is back
   * online, when a page loads, and every few seconds while any wait. A
   * change made while others wait joins the end of the queue, so the
   * server sees them in the order they were made.
   *
   * Exactly once: an entry leaves the queue only after the server answered
   * it, so a page closed or reloaded in between sends it again, and the
   * server makes that repeat a no-op, as for any re-sent form (see the
   * top): a toggle carries the state it wants, Check all and Uncheck all
   * are states already, a move names the item it goes next to, a delete
   * finds its earlier deletion, and each add carries its own nonce (the
   * form's, one more for each add queued after it, as the page the server
   * would have answered carries). Tabs take turns (Web Locks), so two never
   * send the same entry at once.
   *
   * Refused (a 4xx: the list deleted meanwhile, the list full, a link
   * revoked): the entry leaves the queue and is kept in the store
   * refused, shown with what was asked and the server's own words (on the
   * owner's pages, or on its link's for a change made through a shared
   * link), until the visitor dismisses it. A 5xx or 429: it waits and is
   * sent again later.
   *
   * Another owner (this browser signed out, here or elsewhere): the worker
   * drops the last owner's queue and keeps how many went (sw.js); the
   * owner's pages say so, without their words, until dismissed.
   *
   * A shared edit link's page queues its toggles and adds the same way:
   * their list is the link's (/s/TOKEN), and the link's own token in the
   * form makes the replay pass whoever the browser's owner is.
   *
   * Two devices: each queue reaches the server in its own order, and the
   * server applies each change as it arrives: the later of two wanted
   * states of an item wins (checked, or not), every add is kept except the
   * same text added to the same list from the same page state on both
   * (one item: the second is a re-sent add to the server), and each
   * device shows the server's list once its queue is empty.
   */
  var queued = { count: 0, sending: false, timer: 0, sent: false };

  /* The database's code, shared with the service worker (queue.js, named
     by this script's tag): loaded once the page has loaded, or when a
     change must wait before then, so that a first visit never waits for
     it. */
  var queueScript = document.querySelector("script[data-queue]");
  var queueAddress = queueScript && window.indexedDB ? queueScript.getAttribute("data-queue") : "";
  var offlineQueue = null;
  var queueLoading = null;

  function loadQueue() {
    if (!queueLoading) {
      queueLoading = new Promise(function (resolve, reject) {
        if (window.ChecklistsQueue) {
          resolve(window.ChecklistsQueue);
          return;
        }
        var script = document.createElement("script");
        script.src = queueAddress;
        script.onload = function () {
          if (window.ChecklistsQueue) {
            resolve(window.ChecklistsQueue);
          } else {
            reject(new Error("queue.js defined nothing"));
          }
        };
        script.onerror = function () {
          queueLoading = null; // tried again at the next need
          reject(new Error("queue.js could not be loaded"));
        };
        document.head.appendChild(script);
      }).then(function (queue) {
        offlineQueue = queue;
        return queue;
      });
    }
    return queueLoading;
  }

  function withStores(names, mode, work) {
    return loadQueue().then(function (queue) {
      return queue.withStores(names, mode, work);
    });
  }

  function allOf(name) {
    return withStores([name], "readonly", function (store) {
      return store.getAll();
    });
  }

  function isQueueable(action) {
    var path = new URL(action, location.href).pathname;
    return /^\/lists\/\d+\/(items|items\/\d+\/(toggle|move)|check-all|uncheck-all)$/.test(path) ||
      /^\/s\/[0-9a-f]{32}\/(items|items\/\d+\/toggle)$/.test(path);
  }

  /* The shared list this page belongs to (/s/TOKEN), or null on the
     owner's pages. */
  var linkHome = (/^\/s\/[0-9a-f]{32}/.exec(location.pathname) || [null])[0];

  /* A refusal is shown where it was made: one of a shared list's on that
     link's pages only, the owner's on the owner's pages. */
  function isShownHere(entry) {
    return offlineQueue.isLinks(entry) ? entry.list === linkHome : !linkHome;
  }

  /* What a change asked for, in words, from the page it was made on. */
  function describe(path, body) {
    var heading = document.querySelector("main h1");
    var list = heading ? quoted(heading.textContent.trim()) : say("theList");
    var toggle = /\/items\/(\d+)\/toggle$/.exec(path);
    if (toggle) {
      var row = rowWithID(document.querySelector("main"), toggle[1]);
      var name = row ? quoted(textOf(row)) : say("anItem");
      return say(body.get("check") === "0" ? "uncheckIn" : "checkIn", { item: name, list: list });
    }
    if (/\/items$/.test(path)) {
      return say("addTo", { item: quoted(body.get("text") || ""), list: list });
    }
    var moved = /\/items\/(\d+)\/move$/.exec(path);
    if (moved) {
      var movedRow = rowWithID(document.querySelector("main"), moved[1]);
      return say("moveIn", { item: movedRow ? quoted(textOf(movedRow)) : say("anItem"), list: list });
    }
    return say(/uncheck-all$/.test(path) ? "uncheckAllIn" : "checkAllIn", { list: list });
  }

  function queueChange(action, body) {
    var address = new URL(action, location.href);
    var path = address.pathname;
    // A repeating row's toggle?due=… : the due date goes with the fields
    // (the server reads it there too), so that the entry's path is the
    // item's and its replay, however often, checks it once.
    address.searchParams.forEach(function (value, name) {
      if (!body.has(name)) {
        body.append(name, value);
      }
    });
    var entry = {
      path: path,
      list: /^\/(lists\/\d+|s\/[0-9a-f]{32})/.exec(path)[0],
      body: body.toString(),
      what: describe(path, body),
      at: Date.now()
    };
    queued.count += 1;
    withStores(["changes"], "readwrite", function (store) {
      return store.add(entry);
    }).then(function () {
      return showQueued(document);
    }).then(function () {
      var form = document.querySelector("form.add-item");
      if (form && /\/items$/.test(path)) {
        form.reset();
        form.querySelector("input[name=text]").focus();
      }
      announce(say("savedOffline"));
      scheduleSend(1000);
    }, function () {
      queued.count -= 1;
      announce(say("notKeptOffline"));
    });
  }

  /* Shows on this page what waits for it: a toggled row in its wanted
     state (and its button asking for the other next time), Check all and
     Uncheck all on every row, added items in a list of their own; the add
     form's nonce one past the last queued add's. */
  function showQueued(root) {
    return allOf("changes").then(function (changes) {
      queued.count = changes.length;
      var main = root.querySelector("main");
      var old = main && main.querySelector("ul.queued-items");
      if (old) {
        old.parentNode.removeChild(old);
      }
      var mine = changes.filter(function (entry) {
        return entry.list === location.pathname;
      });
      if (!main || mine.length === 0) {
        return;
      }
      var added = document.createElement("ul");
      added.className = "rows queued-items";
      added.setAttribute("aria-label", say("waitingLabel"));
      var form = main.querySelector("form.add-item");
      var nonce = form ? form.querySelector("input[name=nonce]") : null;
      mine.forEach(function (entry) {
        var body = new URLSearchParams(entry.body);
        var toggle = /\/items\/(\d+)\/toggle$/.exec(entry.path);
        var edited = /\/items\/(\d+)$/.exec(entry.path);
        var buttons = [];
        if (edited && rowWithID(main, edited[1])) {
          // An item's edit form sent offline (sw.js): its new text.
          var editedRow = rowWithID(main, edited[1]);
          toggleOf(editedRow).textContent = body.get("text") || "";
          editedRow.classList.add("queued");
          return;
        }
        if (entry.path === entry.list && /^\/lists\//.test(entry.path)) {
          // The list's Edit List form sent offline (sw.js): its name, its icon.
          showListEdit(main, body);
          return;
        }
        var gone = /\/items\/(\d+)\/delete$/.exec(entry.path);
        if (gone) {
          // An item's Delete sent offline (sw.js): the row goes.
          var goneRow = rowWithID(main, gone[1]);
          if (goneRow) {
            goneRow.classList.add("queued");
            goneRow.hidden = true;
          }
          return;
        }
        var moved = /\/items\/(\d+)\/move$/.exec(entry.path);
        if (moved) {
          // Next to the item it was moved to, as the server will put it.
          var movedRow = rowWithID(main, moved[1]);
          var neighbour = rowWithID(main, body.get("before") || body.get("after") || "");
          if (movedRow && neighbour && movedRow !== neighbour) {
            neighbour.parentNode.insertBefore(movedRow, body.get("before") ? neighbour : neighbour.nextSibling);
            movedRow.classList.add("queued");
          }
          return;
        }
        if (toggle) {
          var row = rowWithID(main, toggle[1]);
          buttons = row ? [toggleOf(row)] : [];
        } else if (/check-all$/.test(entry.path)) {
          buttons = Array.prototype.slice.call(main.querySelectorAll("button.check"));
        }
        var wanted = toggle ? body.get("check") === "1" : !/uncheck-all$/.test(entry.path);
        buttons.forEach(function (button) {
          button.setAttribute("aria-pressed", wanted ? "true" : "false");
          button.name = "check";
          button.value = wanted ? "0" : "1";
          button.closest("li").classList.add("queued");
        });
        if (/\/items$/.test(entry.path)) {
          var item = document.createElement("li");
          var waiting = document.createElement("span");
          item.className = "queued";
          item.textContent = body.get("text") || "";
          waiting.className = "queued-note";
          waiting.textContent = say("waiting");
          item.appendChild(waiting);
          added.appendChild(item);
          if (nonce && Number(body.get("nonce")) >= Number(nonce.value)) {
            nonce.value = String(Number(body.get("nonce")) + 1);
          }
        }
      });
      if (added.firstChild && form) {
        form.parentNode.insertBefore(added, form);
      }
    });
  }

  /* The list's heading as a queued Edit List form leaves it: its icon
     (none: no glyph) and its name. */
  function showListEdit(main, body) {
    var heading = main.querySelector("h1");
    if (!heading) {
      return;
    }
    var icon = body.get("icon") || "folder";
    var glyph = heading.querySelector(".list-icon");
    Array.prototype.slice.call(heading.childNodes).forEach(function (node) {
      if (node !== glyph) {
        heading.removeChild(node);
      }
    });
    if (icon === "none" && glyph) {
      heading.removeChild(glyph);
    } else if (icon !== "none") {
      if (!glyph) {
        glyph = document.createElement("span");
        heading.appendChild(glyph);
      }
      glyph.className = "list-icon i-" + icon;
    }
    heading.appendChild(document.createTextNode(body.get("name") || ""));
    heading.classList.add("queued");
  }

  /* The refused changes, listed until dismissed. */
  function showRefused() {
    return allOf("refused").then(function (all) {
      var refused = all.filter(isShownHere);
      var old = document.querySelector(".refused-changes");
      if (old) {
        old.parentNode.removeChild(old);
      }
      var main = document.querySelector("main");
      if (!main || refused.length === 0) {
        return;
      }
      var box = document.createElement("div");
      box.className = "notice refused-changes";
      box.setAttribute("role", "alert");
      var title = document.createElement("p");
      title.textContent = say("notSaved", {}, refused.length);
      var list = document.createElement("ul");
      refused.forEach(function (entry) {
        var item = document.createElement("li");
        item.textContent = entry.what + " \u2014 " + entry.reason;
        list.appendChild(item);
      });
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.textContent = say("dismiss");
      dismiss.addEventListener("click", function () {
        withStores(["refused"], "readwrite", function (store) {
          refused.forEach(function (entry) {
            store.delete(entry.id);
          });
        }).then(showRefused);
      });
      box.appendChild(title);
      box.appendChild(list);
      box.appendChild(dismiss);
      main.insertBefore(box, main.firstChild);
    });
  }

  /* Changes an earlier owner of this browser made offline and never sent
     (it was signed out, here or elsewhere, or its cookie went): the worker
     dropped them (sw.js) and kept only how many, which is said here until
     dismissed. Their words are not shown: they were somebody else's. */
  function showDropped() {
    return allOf("dropped").then(function (dropped) {
      var old = document.querySelector(".dropped-changes");
      if (old) {
        old.parentNode.removeChild(old);
      }
      var main = linkHome ? null : document.querySelector("main");
      var count = dropped.reduce(function (sum, entry) {
        return sum + entry.count;
      }, 0);
      if (!main || count === 0) {
        return;
      }
      var box = document.createElement("div");
      box.className = "notice dropped-changes";
      box.setAttribute("role", "alert");
      var text = document.createElement("p");
      text.textContent = say("notSent", {}, count);
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.textContent = say("dismiss");
      dismiss.addEventListener("click", function () {
        withStores(["dropped"], "readwrite", function (store) {
          return store.clear();
        }).then(showDropped);
      });
      box.appendChild(text);
      box.appendChild(dismiss);
      main.insertBefore(box, main.firstChild);
    });
  }

  function showNotices() {
    return showRefused().then(showDropped);
  }

  /* The server's words for a refusal: its error page's heading and message. */
  function reasonOf(html, status) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var words = [page.querySelector("main h1"), page.querySelector("main p.message")]
      .filter(Boolean).map(function (element) {
        return element.textContent.trim();
      }).filter(Boolean);
    return words.length > 0 ? words.join(": ") : say("refusedByServer", { status: String(status) });
  }

  function scheduleSend(delay) {
    window.clearTimeout(queued.timer);
    if (queued.count > 0) {
      queued.timer = window.setTimeout(sendQueued, delay);
    }
  }

  /* Sends the queue, oldest first, until it is empty or the network fails. */
  function sendQueued() {
    if (queued.sending || !queueAddress) {
      return;
    }
    queued.sending = true;
    var turn = navigator.locks && navigator.locks.request
      ? function (work) {
        return navigator.locks.request("checklists-offline-queue", work);
      }
      : function (work) {
        return work();
      };
    turn(sendEach).then(finish, finish);

    function finish() {
      queued.sending = false;
      return allOf("changes").then(function (changes) {
        queued.count = changes.length;
        if (changes.length > 0) {
          scheduleSend(5000);
        } else if (queued.sent && !pending) {
          location.reload(); // the server's list, everything applied
        }
      });
    }
  }

  function sendEach() {
    return allOf("changes").then(function (changes) {
      var entry = changes[0];
      if (!entry) {
        return null;
      }
      return fetch(entry.path, {
        method: "POST",
        body: new URLSearchParams(entry.body),
        credentials: "same-origin",
        redirect: "follow",
        headers: { Accept: "text/html" }
      }).then(function (response) {
        if (response.ok) {
          queued.sent = true;
          return withStores(["changes"], "readwrite", function (store) {
            return store.delete(entry.id);
          });
        }
        if (response.status >= 500 || response.status === 429) {
          throw new Error("status " + response.status);
        }
        return response.text().then(function (html) {
          var refusal = {
            what: entry.what, list: entry.list, reason: reasonOf(html, response.status), at: Date.now()
          };
          // Kept as refused only while it is still queued: when the answer
          // named another owner, the worker has dropped the queue (sw.js),
          // and the last owner's words are not shown to the new one.
          return withStores(["changes", "refused"], "readwrite", function (changesStore, refused) {
            var still = changesStore.get(entry.id);
            still.onsuccess = function () {
              if (still.result) {
                changesStore.delete(entry.id);
                refused.add(refusal);
              }
            };
          });
        }).then(function () {
          queued.sent = true;
          return showNotices();
        });
      }).then(sendEach);
    });
  }

  function whenLoaded(work) {
    if (document.readyState === "complete") {
      work();
    } else {
      window.addEventListener("load", work);
    }
  }

  if (queueAddress && (document.querySelector('link[rel="manifest"]') || linkHome)) {
    whenLoaded(function () {
      showQueued(document).then(function () {
        scheduleSend(0);
      }).catch(function () {});
      showNotices().catch(function () {});
    });
    window.addEventListener("online", function () {
      scheduleSend(0);
    });
    if (navigator.serviceWorker) {
      // The worker dropped the queue (the browser's owner changed).
      navigator.serviceWorker.addEventListener("message", function (event) {
        if (event.data && event.data.type === "dropped") {
          showQueued(document).then(showNotices).catch(function () {});
        }
      });
    }
  }

  prepare(document);
})();

/*
 * A page shown again from history (back, forward, or the back/forward
 * cache) reaches the browser without a request, so the server never hears
 * that the visitor is looking at this list again, and a later visit to `/`
 * would land where they were before. A HEAD request of the same address
 * tells it: the answer carries the cookie that moves `ChecklistIndex`.
 */
(function () {
  "use strict";

  if (!window.fetch || !window.performance) {
    return;
  }

  function fromHistory(event) {
    if (event.persisted) {
      return true; // restored from the back/forward cache
    }
    var entries = performance.getEntriesByType ? performance.getEntriesByType("navigation") : [];
    return entries.length > 0 && entries[0].type === "back_forward";
  }

  window.addEventListener("pageshow", function (event) {
    if (!/^\/lists(\/\d+)?$/.test(location.pathname) || !fromHistory(event)) {
      return;
    }
    fetch(location.pathname, { method: "HEAD", credentials: "same-origin", cache: "no-store" })
      .catch(function () {});
  });
})();

/*
 * The Copy button beside the calendar address (Settings) and beside each
 * share link (Edit List). Without this script, or without a clipboard it
 * may write, the button stays hidden and the read-only field is there to
 * select and copy by hand. A button's data-copied says what is said once
 * it copied.
 */
(function () {
  "use strict";

  var say = checklistsSay;

  if (!navigator.clipboard || !navigator.clipboard.writeText) {
    return;
  }

  Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), function (button) {
    button.hidden = false;
  });

  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null;
    var field = button ? document.getElementById(button.getAttribute("data-copy")) : null;
    if (!field) {
      return;
    }
    var status = button.closest(".field") ? button.closest(".field").querySelector(".copy-status") : null;
    function tell(text) {
      if (status) {
        status.textContent = text;
      }
    }
    navigator.clipboard.writeText(field.value).then(function () {
      tell(button.getAttribute("data-copied") || say("addressCopied"));
    }, function () {
      field.focus();
      field.select();
      tell(say("copyRefused"));
    });
  });
})();

/*
 * Offline (see sw.js). On the owner's pages (those that link the manifest)
 * the service worker is registered once the page has loaded, so a first
 * visit waits for nothing; on that first visit, which the worker did not
 * answer, it is asked to keep this page and its shell. A banner says the
 * page is offline: while the browser says it has no network, or when the
 * worker answered this page from its cache.
 */
(function () {
  "use strict";

  var say = checklistsSay;

  // The owner's pages link the manifest; a shared list's pages are kept
  // too, each link's apart (sw.js).
  if (!("serviceWorker" in navigator) ||
      !(document.querySelector('link[rel="manifest"]') || /^\/s\/[0-9a-f]{32}(\/|$)/.test(location.pathname))) {
    return;
  }

  var banner = null;

  function showOffline(offline) {
    if (!banner) {
      banner = document.createElement("p");
      banner.className = "offline-banner";
      banner.setAttribute("role", "status");
      banner.hidden = true;
      banner.textContent = say("offline");
      document.body.insertBefore(banner, document.querySelector("main"));
    }
    banner.hidden = !offline;
    document.documentElement.classList.toggle("offline", offline);
  }

  window.addEventListener("offline", function () {
    showOffline(true);
  });
  window.addEventListener("online", function () {
    showOffline(false);
  });
  if (!navigator.onLine) {
    showOffline(true);
  }

  navigator.serviceWorker.addEventListener("message", function (event) {
    if (event.data && event.data.type === "status" && event.data.offline) {
      showOffline(true);
    }
  });

  var controlled = Boolean(navigator.serviceWorker.controller);
  if (controlled) {
    navigator.serviceWorker.controller.postMessage({ type: "status" });
  }

  function keepThisPage(worker) {
    var urls = [location.pathname, "/favicon.svg", "/manifest.webmanifest"].concat(queueAddress ? [queueAddress] : []);
    Array.prototype.forEach.call(document.querySelectorAll('link[rel="stylesheet"], script[src], img[src]'),
      function (element) {
        urls.push(element.getAttribute("href") || element.getAttribute("src"));
      });
    worker.postMessage({ type: "keep", urls: urls, page: location.pathname });
  }

  var queueScript = document.querySelector("script[data-queue]");
  var queueAddress = queueScript ? queueScript.getAttribute("data-queue") : "";

  /* The worker loads the queue's code in the version this page does. */
  function workerAddress() {
    var version = /^\/queue\.js\?v=([0-9a-f]+)$/.exec(queueAddress);
    return "/sw.js" + (version ? "?queue=" + version[1] : "");
  }

  window.addEventListener("load", function () {
    navigator.serviceWorker.register(workerAddress()).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (!controlled && registration.active) {
        keepThisPage(registration.active);
      }
    }).catch(function () {});
  });
})();
