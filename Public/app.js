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
 * No inline script, no eval: it runs under the site's
 * Content-Security-Policy (script-src 'self'; connect-src 'self').
 */
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

  /* The hidden browserTimeZone field, in every form that changes items. */
  function addZone(root) {
    if (!zone) {
      return;
    }
    Array.prototype.forEach.call(root.querySelectorAll(ZONED_FORMS), function (form) {
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
    Array.prototype.forEach.call(root.querySelectorAll(ROW), function (row) {
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

  function quoted(text) {
    return "\u201c" + text + "\u201d";
  }

  /* A checklist row: its toggle, id, text and checkmark. */
  function toggleOf(row) {
    return row.querySelector("button.check");
  }

  function idOf(row) {
    var match = /items\/(\d+)\/toggle$/.exec(toggleOf(row).getAttribute("formaction"));
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
    return " to position " + (rows.indexOf(row) + 1) + " of " + rows.length;
  }

  /* What to focus and say once the new <main> is in, for a submission by
     a form's button: the same control, or the one now at its place. */
  function focusPlan(form, submitter) {
    var action = actionOf(form, submitter);
    if (form.classList.contains("add-item")) {
      var text = form.elements.text ? form.elements.text.value : "";
      return function (main) {
        if (text) {
          announce("Added " + text);
        }
        return main.querySelector("form.add-item input[name=text]");
      };
    }
    if (submitter.classList.contains("check")) {
      var toggles = Array.prototype.slice.call(document.querySelectorAll("main button.check"));
      var index = toggles.indexOf(submitter);
      return function (main) {
        var fresh = main.querySelectorAll("button.check");
        for (var i = 0; i < fresh.length; i++) {
          if (fresh[i].formAction === action) {
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
        announce("Moved " + quoted(name) + position(row));
        var same = row.querySelector(up ? "button.up" : "button.down");
        return same.disabled ? row.querySelector(up ? "button.down" : "button.up") : same;
      };
    }
    // The list's buttons: the same one, else the one now in its place
    // (Sort by due date becomes Show my order; Check all goes once every
    // item is checked), and what it did, in words.
    var kind = /\/(sort|check-all|uncheck-all)$/.exec(action)[1];
    var said = kind === "sort"
      ? (submitter.value === "dueDate" ? "Sorted by due date" : "Shown in your order")
      : kind === "check-all" ? "Every item checked" : "Every item unchecked";
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

  /* One change: POST `body` to `action`, put the answer's <main> in place
     and focus what `plan` returns for it; `fallback` submits natively. */
  function send(action, body, plan, fallback) {
    var main = document.querySelector("main");
    var accepted = false;
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
        if (!response.ok) {
          throw new Error("status " + response.status);
        }
        // A 2xx after the redirect: the change is made. From here on, never
        // submit again; at worst, load the resulting page.
        accepted = true;
        return response.text().then(function (html) {
          return { url: response.url, html: html };
        });
      })
      .then(function (page) {
        var next = new DOMParser().parseFromString(page.html, "text/html");
        var fresh = next.querySelector("main");
        var target = new URL(page.url, location.href);
        if (!fresh || target.pathname !== location.pathname) {
          location.assign(target.href);
          return;
        }
        var current = document.querySelector("main");
        current.replaceWith(document.adoptNode(fresh));
        if (next.title) {
          document.title = next.title;
        }
        prepare(fresh);
        (plan(fresh) || fresh).focus();
      })
      .catch(function () {
        main.removeAttribute("aria-busy");
        if (accepted) {
          location.reload();
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
    var action = toggleOf(row).formAction.replace(/\/toggle$/, "/move");
    var body = new URLSearchParams(new FormData(form));
    body.append(field, idOf(neighbour));
    send(action, body, function (main) {
      var moved = rowWithID(main, id);
      if (!moved) {
        return null;
      }
      announce("Moved " + quoted(text) + position(moved));
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
      announce(quoted(textOf(row)) + " is already " + (up ? "first" : "last"));
      return;
    }
    var kind = control.classList.contains("edit") ? "a.edit"
      : control.classList.contains("del") ? "button.del" : "button.check";
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
 * The Copy button beside the calendar address (Settings). Without this
 * script, or without a clipboard it may write, the button stays hidden and
 * the read-only field is there to select and copy by hand.
 */
(function () {
  "use strict";

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
    function say(text) {
      if (status) {
        status.textContent = text;
      }
    }
    navigator.clipboard.writeText(field.value).then(function () {
      say("Address copied.");
    }, function () {
      field.focus();
      field.select();
      say("Copying was not allowed: the address is selected, copy it with your keyboard.");
    });
  });
})();
