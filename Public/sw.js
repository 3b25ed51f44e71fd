/*
 * Checklists' service worker: the lists a visitor opened, readable offline.
 *
 * Registered by app.js (after the page has loaded, so a first visit waits
 * for nothing) on the owner's pages, which link the manifest; served from
 * /sw.js with Cache-Control: no-cache (nginx.conf), so a new version is
 * found at the next visit. Its scope is the whole site.
 *
 * What it keeps, and nothing else:
 * - the app shell: the stylesheet, this script's page script, the icons
 *   (same-origin GETs of .css, .js, .svg, .png, the manifest), in one cache
 *   shared by everyone, since none of it is anyone's;
 * - the pages All Lists (/lists), each list (/lists/N) and each item's
 *   edit form the visitor opened, each answer of 200 fetched while online
 *   replacing the last, in
 *   a cache named after the owner the answer was made for (its
 *   Checklists-Owner field), plus which of them was opened last.
 *
 * Never kept: any other page (Settings shows the calendar address, Edit
 * List the share links, Devices a link code or an app password), any
 * answer marked no-store, any answer without an owner. Addresses that
 * hold a secret (/s/..., /calendar/..., /link/...) and CalDAV's (/dav/) are
 * not even looked at: the browser fetches them as if there were no worker.
 *
 * Owners: every answer of an owner's page names them. When an answer names
 * another owner than a kept cache's (this browser was signed out, here or
 * elsewhere, or is a new visitor), every other owner's cache is deleted
 * before anything else is done with it, and with them the changes the
 * last owner made offline and had not sent yet (app.js's queue).
 *
 * Online, every request goes to the network as it would without the worker
 * (the browser's HTTP cache, ETags, 304s and cookies included): the worker
 * only keeps a copy. Offline (the network fails), a kept page is answered
 * from the cache; `/` follows the landing rule (the page opened last); the
 * page asks whether it came from the cache, to show its offline banner.
 * An item's edit form sent offline joins app.js's queue (queueEdit).
 */
"use strict";

var SHELL = "checklists-shell-v1";
var OWNER_PREFIX = "checklists-owner-";
var OWNER_FIELD = "Checklists-Owner";
/* app.js's queue of changes made offline. */
var QUEUE_DB = "checklists-offline";
/* The key, in an owner's cache, of the address of the page opened last. */
var LAST_PAGE = "/offline/last-page";
/* Pages answered from the cache, by the client they were answered to. */
var fromCache = {};

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("checklists-shell-") === 0 && name !== SHELL;
    }).map(function (name) {
      return caches.delete(name);
    }));
  }).then(function () {
    return self.clients.claim();
  }));
});

function isPage(url) {
  return isLanding(url) || /^\/lists\/[0-9]+\/items\/[0-9]+\/edit$/.test(url.pathname);
}

/* The pages `/` may land on: All Lists and a list. */
function isLanding(url) {
  return url.pathname === "/lists" || /^\/lists\/[0-9]+$/.test(url.pathname);
}

function isShell(url) {
  return url.pathname !== "/sw.js" &&
    (/\.(css|js|svg|png)$/.test(url.pathname) || url.pathname === "/manifest.webmanifest");
}

function isSecret(url) {
  return /^\/+(s|calendar|link|dav)(\/|$)/.test(url.pathname);
}

/* The owner `response` names, after deleting every other owner's cache;
   null when it names none. */
function noteOwner(response) {
  var tag = response.headers.get(OWNER_FIELD);
  if (!tag || !/^[0-9a-f]{32}$/.test(tag)) {
    return Promise.resolve(null);
  }
  return caches.keys().then(function (names) {
    var others = names.filter(function (name) {
      return name.indexOf(OWNER_PREFIX) === 0 && name !== OWNER_PREFIX + tag;
    });
    if (others.length > 0) {
      // The changes the last owner made offline go too (app.js's queue):
      // sent now they would be refused, and shown to somebody else.
      indexedDB.deleteDatabase(QUEUE_DB);
    }
    return Promise.all(others.map(function (name) {
      return caches.delete(name);
    }));
  }).then(function () {
    return tag;
  });
}

function isKeepable(response) {
  return response.status === 200 && response.type === "basic" && !response.redirected &&
    !/no-store/i.test(response.headers.get("Cache-Control") || "");
}

/* Keeps a page's answer in its owner's cache, and it as the page opened
   last when the visitor navigated to it. */
function keepPage(url, response, navigated) {
  var copy = response.clone();
  return noteOwner(response).then(function (tag) {
    if (!tag || !isKeepable(response)) {
      return;
    }
    return caches.open(OWNER_PREFIX + tag).then(function (cache) {
      var kept = [cache.put(url.pathname, copy)];
      if (navigated && isLanding(url)) {
        kept.push(cache.put(LAST_PAGE, new Response(url.pathname)));
      }
      return Promise.all(kept);
    });
  });
}

/* Keeps an asset of the shell; an older version of the same file goes. */
function keepShell(request, response) {
  if (!isKeepable(response)) {
    return Promise.resolve();
  }
  var url = new URL(request.url);
  var copy = response.clone();
  return caches.open(SHELL).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (old) {
        var oldURL = new URL(old.url);
        return oldURL.pathname === url.pathname && oldURL.search !== url.search;
      }).map(function (old) {
        return cache.delete(old);
      }));
    }).then(function () {
      return cache.put(request, copy);
    });
  });
}

/* The owner's cache (there is at most one), or null. */
function ownerCache() {
  return caches.keys().then(function (names) {
    var name = names.filter(function (name) {
      return name.indexOf(OWNER_PREFIX) === 0;
    })[0];
    return name ? caches.open(name) : null;
  });
}

function offlinePage(text) {
  var html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<title>Offline · Checklists</title></head><body><main><h1>Offline</h1><p>" + text +
    "</p><p><a href=\"/lists\">All Lists</a></p></main></body></html>";
  return new Response(html, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }
  });
}

/* A navigation the network could not answer. */
function fromCacheFor(event, url) {
  return ownerCache().then(function (cache) {
    if (!cache) {
      return null;
    }
    if (url.pathname === "/") {
      return cache.match(LAST_PAGE).then(function (last) {
        return last ? last.text() : "/lists";
      }).then(function (path) {
        return Response.redirect(path, 303);
      });
    }
    return isPage(url) ? cache.match(url.pathname) : null;
  }).then(function (response) {
    if (response && response.status === 200 && event.resultingClientId) {
      fromCache[event.resultingClientId] = true;
    }
    return response || offlinePage(event.request.method === "GET"
      ? "This page was not saved on this device. The lists you opened before are."
      : "You are offline: this change was not sent. Go back, and try again when you are back online.");
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || isSecret(url)) {
    return;
  }
  if (request.method === "GET" && isShell(url)) {
    event.respondWith(fetch(request).then(function (response) {
      event.waitUntil(keepShell(request, response));
      return response;
    }, function (error) {
      return caches.match(request).then(function (kept) {
        if (kept) {
          return kept;
        }
        throw error;
      });
    }));
    return;
  }
  var navigated = request.mode === "navigate";
  var edit = request.method === "POST" && navigated ? /^\/lists\/([0-9]+)\/items\/[0-9]+$/.exec(url.pathname) : null;
  var body = edit ? request.clone().text() : null;
  event.respondWith(fetch(request).then(function (response) {
    if (request.method === "GET" && isPage(url)) {
      event.waitUntil(keepPage(url, response, navigated));
    } else if (response.type === "basic") {
      event.waitUntil(noteOwner(response));
    }
    return response;
  }, function (error) {
    if (!navigated) {
      throw error;
    }
    if (edit) {
      return body.then(function (text) {
        return queueEdit(url.pathname, "/lists/" + edit[1], text);
      }).then(function () {
        return Response.redirect("/lists/" + edit[1], 303);
      }, function () {
        return fromCacheFor(event, url);
      });
    }
    return fromCacheFor(event, url);
  }));
});

/* An item's edit form (a form without the page script's help) sent with
   no network: kept at the end of app.js's queue, as app.js keeps a toggle,
   and answered as the server would, with the list, where app.js shows it
   and sends it later. Saving the same fields twice is saving them once. */
function queueEdit(path, list, body) {
  var text = new URLSearchParams(body).get("text") || "";
  var entry = {
    path: path, list: list, body: body, at: Date.now(),
    what: "Save \u201c" + text + "\u201d"
  };
  return new Promise(function (resolve, reject) {
    var opening = indexedDB.open(QUEUE_DB, 1);
    opening.onupgradeneeded = function () {
      opening.result.createObjectStore("changes", { keyPath: "id", autoIncrement: true });
      opening.result.createObjectStore("refused", { keyPath: "id", autoIncrement: true });
    };
    opening.onerror = function () {
      reject(opening.error);
    };
    opening.onsuccess = function () {
      var db = opening.result;
      var transaction = db.transaction(["changes"], "readwrite");
      transaction.objectStore("changes").add(entry);
      transaction.oncomplete = function () {
        db.close();
        resolve();
      };
      transaction.onerror = transaction.onabort = function () {
        db.close();
        reject(transaction.error);
      };
    };
  });
}

/* A page asks whether it was answered from the cache (its offline banner),
   or, on its first visit, before the worker answered anything, to keep
   itself and its shell. */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "status" && event.source) {
    event.source.postMessage({ type: "status", offline: fromCache[event.source.id] === true });
  } else if (data.type === "keep" && Array.isArray(data.urls)) {
    event.waitUntil(Promise.all(data.urls.map(function (address) {
      var url = new URL(address, self.location.origin);
      if (url.origin !== self.location.origin || isSecret(url)) {
        return null;
      }
      var request = new Request(url.href, { credentials: "same-origin" });
      return fetch(request).then(function (response) {
        if (isShell(url)) {
          return keepShell(request, response);
        }
        return isPage(url) ? keepPage(url, response, data.page === url.pathname) : noteOwner(response);
      }).catch(function () {});
    })));
  }
});
