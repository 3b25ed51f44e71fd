/*
 * Checklists: progressive enhancement.
 *
 * Every form works without this script. With it, checking an item and
 * adding one happen without a full page load: the form is sent with fetch
 * (same fields, urlencoded, to the button's formaction, the server's 303
 * followed), and the page's <main> is replaced by the <main> of the page
 * that comes back. Focus goes
 * back where the visitor was. If anything goes wrong before the server has
 * accepted the change, the form is submitted the ordinary way instead.
 *
 * That second submission may carry a change the server has already made
 * (the request timed out, or the connection broke, after the commit), so
 * both enhanced forms say what they want rather than "once more": a toggle
 * sends the state it asks for (its button's check=1 or 0), the add form the
 * state it was rendered in (nonce), and the server applies a repeat as a
 * no-op. Hence the body below includes the pressed button's name and value,
 * as a native submission does.
 *
 * No inline script, no eval: it runs under the site's
 * Content-Security-Policy (script-src 'self'; connect-src 'self').
 */
(function () {
  "use strict";

  if (!window.fetch || !window.DOMParser || !window.URLSearchParams || !window.FormData) {
    return;
  }

  var pending = false;
  var announcer = null;

  /* Submissions this script takes over: a toggle (a button.check, which
     posts to its formaction) or the add-item form. Deleting and every other
     form submit as usual. */
  function isEnhanced(form, submitter) {
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") {
      return false;
    }
    if (form.classList.contains("add-item")) {
      return true;
    }
    return !!submitter && submitter.classList.contains("check");
  }

  /* A button's formAction reads as the page's own address when it has no
     formaction attribute, so only an explicit one overrides the form's. */
  function actionOf(form, submitter) {
    return submitter && submitter.hasAttribute("formaction") ? submitter.formAction : form.action;
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

  /* What to focus once the new <main> is in: the same toggle, or the one
     now at its place (a checked item may be hidden), or the add field. */
  function focusPlan(form, submitter) {
    var toggles = Array.prototype.slice.call(document.querySelectorAll("main button.check"));
    var isToggle = !!submitter && submitter.classList.contains("check");
    return {
      kind: isToggle ? "toggle" : "add",
      action: actionOf(form, submitter),
      index: isToggle ? toggles.indexOf(submitter) : -1,
      text: form.elements.text ? form.elements.text.value : ""
    };
  }

  function restoreFocus(plan, main) {
    var target = null;
    if (plan.kind === "toggle") {
      var toggles = main.querySelectorAll("button.check");
      for (var i = 0; i < toggles.length && !target; i++) {
        if (toggles[i].formAction === plan.action) {
          target = toggles[i];
        }
      }
      if (!target && toggles.length > 0) {
        target = toggles[Math.min(Math.max(plan.index, 0), toggles.length - 1)];
      }
    } else {
      target = main.querySelector("form.add-item input[name=text]");
      if (plan.text) {
        announce("Added " + plan.text);
      }
    }
    (target || main).focus();
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

  function send(form, submitter) {
    var main = document.querySelector("main");
    var plan = focusPlan(form, submitter);
    var accepted = false;
    pending = true;
    main.setAttribute("aria-busy", "true");

    fetch(plan.action, {
      method: "POST",
      body: bodyOf(form, submitter),
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
        restoreFocus(plan, fresh);
      })
      .catch(function () {
        main.removeAttribute("aria-busy");
        if (accepted) {
          location.reload();
        } else {
          // Safe even when the first attempt was applied: see the top.
          submitNatively(form, submitter);
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
    send(form, submitter);
  });
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
