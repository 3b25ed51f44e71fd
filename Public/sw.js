/*
 * Checklists' service worker: the lists a visitor opened, readable offline.
 *
 * Registered by app.js (after the page has loaded, so a first visit waits
 * for nothing) on the owner's pages, which link the manifest, and on a
 * shared link's, as /sw.js?queue=VERSION (the queue.js it imports); served from
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
 *   Checklists-Owner field), plus which of them was opened last;
 * - a shared list's pages (/s/TOKEN and an item's edit form under it), in
 *   a cache of that link's own (checklists-link- and part of the token's
 *   SHA-256), never an owner's, left alone when the owner changes, and
 *   deleted when the link's list answers 404 or 410 (revoked, or deleted).
 *
 * Never kept: any other page (Settings shows the calendar address, Edit
 * List the share links, Devices a link code or an app password), any
 * answer marked no-store, any answer without an owner. The other
 * addresses that hold a secret (/calendar/..., /link/...) and CalDAV's
 * (/dav/) are not even looked at: the browser fetches them as if there
 * were no worker.
 *
 * Owners: every answer of an owner's page names them. When an answer names
 * another owner than a kept cache's (this browser was signed out, here or
 * elsewhere, or is a new visitor), every other owner's cache is deleted
 * before anything else is done with it, and with them the changes the
 * last owner made offline and had not sent yet (queue.js's dropAll): the
 * pages then say how many went, never what they were (app.js). An answer
 * to a change waits for that check, so a queued change refused because
 * the owner changed is never shown to the new owner as theirs.
 *
 * Online, every request goes to the network as it would without the worker
 * (the browser's HTTP cache, ETags, 304s and cookies included): the worker
 * only keeps a copy. Offline (the network fails), a kept page is answered
 * from the cache; `/` follows the landing rule (the page opened last); the
 * page asks whether it came from the cache, to show its offline banner.
 * An item's edit form or Delete sent offline joins the queue (queueEdit),
 * on an owner's list or through an edit link.
 */
"use strict";

/* The queue of changes made offline (queue.js), in the version the pages
   load: app.js registers this worker as /sw.js?queue=VERSION. */
var QUEUE_VERSION = new URL(self.location.href).searchParams.get("queue") || "";
importScripts("/queue.js" + (/^[0-9a-f]{12}$/.test(QUEUE_VERSION) ? "?v=" + QUEUE_VERSION : ""));

var SHELL = "checklists-shell-v1";
var OWNER_PREFIX = "checklists-owner-";
var LINK_PREFIX = "checklists-link-";
var OWNER_FIELD = "Checklists-Owner";
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
  return isLanding(url) || /^\/lists\/[0-9]+(\/items\/[0-9]+)?\/edit$/.test(url.pathname);
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

/* A shared list's address (/s/TOKEN and the pages under it): its token,
   its list's address and what follows; null for any other. */
function linkOf(url) {
  var match = /^\/s\/([0-9a-f]{32})(\/.*)?$/.exec(url.pathname);
  return match ? { token: match[1], home: "/s/" + match[1], rest: match[2] || "" } : null;
}

/* The link's pages kept: its list and an item's edit form. */
function isLinkPage(link) {
  return link.rest === "" || /^\/items\/[0-9]+\/edit$/.test(link.rest);
}

/* The cache of one link, named after its token's SHA-256 (the list of
   caches never shows a token). */
function linkCacheName(link) {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(link.token)).then(function (digest) {
    return LINK_PREFIX + Array.prototype.map.call(new Uint8Array(digest).slice(0, 16), function (byte) {
      return (byte < 16 ? "0" : "") + byte.toString(16);
    }).join("");
  });
}

/* What an answer about a link does to its copy: a page's 200 replaces it;
   a 404 or 410 for the link's list (the link revoked, or its list
   deleted) deletes every page of that link. */
function noteLinkAnswer(link, url, request, response) {
  if ((response.status === 404 || response.status === 410) && link.rest === "") {
    return linkCacheName(link).then(function (name) {
      return caches.delete(name);
    });
  }
  if (request.method !== "GET" || !isLinkPage(link) || !isKeepable(response)) {
    return Promise.resolve();
  }
  var copy = response.clone();
  return linkCacheName(link).then(function (name) {
    return caches.open(name);
  }).then(function (cache) {
    return cache.put(url.pathname, copy);
  });
}

/* A request to a shared list's address. Online, the network's answer (a
   copy kept in the link's own cache, never the owner's). Offline, the
   link's kept page; an item's edit form or Delete on an edit link queued
   as the owner's are (queueEdit), answered with the link's list. */
function linkFetch(event, request, url, link) {
  var navigated = request.mode === "navigate";
  var queueable = request.method === "POST" && navigated && /^\/items\/[0-9]+(\/delete)?$/.test(link.rest);
  var body = queueable ? request.clone().text() : null;
  return fetch(request).then(function (response) {
    event.waitUntil(noteLinkAnswer(link, url, request, response));
    return response;
  }, function (error) {
    if (!navigated) {
      throw error;
    }
    if (queueable) {
      return Promise.all([body, linkWords(link)]).then(function (read) {
        return queueEdit(url.pathname, link.home, read[0], read[1]);
      }).then(function () {
        return Response.redirect(link.home, 303);
      }, function () {
        return offlinePageFor("changeNotSent", link);
      });
    }
    if (request.method !== "GET" || !isLinkPage(link)) {
      return offlinePageFor(request.method === "GET" ? "pageNotKept" : "changeNotSent", link);
    }
    return linkCacheName(link).then(function (name) {
      return caches.match(url.pathname, { cacheName: name });
    }).then(function (kept) {
      if (!kept) {
        return offlinePageFor("pageNotKept", link);
      }
      if (event.resultingClientId) {
        fromCache[event.resultingClientId] = true;
      }
      return kept;
    });
  });
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
    if (others.length === 0) {
      return null;
    }
    return Promise.all(others.map(function (name) {
      return caches.delete(name);
    })).then(dropQueue);
  }).then(function () {
    return tag;
  });
}

/* The changes the last owner made offline and had not sent go too (the
   server would refuse them: their form's token is the last owner's), with
   their refusals; the pages open say how many went (app.js). */
function dropQueue() {
  return self.ChecklistsQueue.dropAll().then(function (count) {
    return self.clients.matchAll({ type: "window" }).then(function (windows) {
      windows.forEach(function (client) {
        client.postMessage({ type: "dropped", count: count });
      });
    });
  }).catch(function () {});
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
    if (tag && response.status === 200 && !isKeepable(response)) {
      // Now marked no-store (Edit List showing a share link): the copy goes.
      return caches.open(OWNER_PREFIX + tag).then(function (cache) {
        return cache.delete(url.pathname);
      });
    }
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
  var stylesheet = /\.css$/.test(url.pathname) ? response.clone() : null;
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
    }).then(function () {
      return stylesheet ? keepNamedImages(stylesheet, cache) : null;
    });
  });
}

/* Keeps the images a stylesheet names (url("/ui/check.svg?v=1")) that are
   not kept yet: a browser draws one only when a rule needs it, so a check
   mark never drawn online (nothing checked since the worker came) would be
   missing from every row checked offline. */
function keepNamedImages(stylesheet, cache) {
  return stylesheet.text().then(function (text) {
    var names = text.match(/url\("?\/[^")]+"?\)/g) || [];
    return Promise.all(names.map(function (name) {
      var url = new URL(name.replace(/^url\("?|"?\)$/g, ""), self.location.origin);
      if (!isShell(url)) {
        return null;
      }
      var request = new Request(url.href, { credentials: "same-origin" });
      return cache.match(request).then(function (kept) {
        return kept ? null : fetch(request).then(function (response) {
          return keepShell(request, response);
        });
      }).catch(function () {});
    }));
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

/* The worker's own words (its offline page, the names of the changes it
   queues) come from the same catalogue as the pages': the phrases script
   a page it kept for the visitor runs (/phrases.LANG.js?v=HASH,
   ScriptPhrases on the server), kept with the shell, so they are in the
   language of the pages the visitor saw; in English when no page, or
   not its phrases, is kept. */
var ENGLISH = {
  lang: "en",
  rtl: false,
  phrases: {
    offlineTitle: "Offline",
    pageNotKept: "This page was not saved on this device. The lists you opened before are.",
    changeNotSent: "You are offline: this change was not sent. Go back, and try again when you are back online.",
    allLists: "All Lists",
    theSharedList: "The shared list",
    renameListTo: "Rename the list to {{name}}",
    deleteAnItem: "Delete an item",
    saveItem: "Save {{item}}",
    quoted: "\u201c{{text}}\u201d"
  }
};

/* The words of a kept page's answer (null: English): its language, and
   the phrases of the script it links to, as kept (or fetched, online). */
function wordsOf(response) {
  if (!response) {
    return Promise.resolve(ENGLISH);
  }
  return response.clone().text().then(function (html) {
    var script = /<script src="(\/phrases\.[A-Za-z0-9-]+\.js\?v=[0-9a-f]+)"/.exec(html);
    var root = /<html lang="([A-Za-z0-9-]+)"( dir="rtl")?/.exec(html);
    if (!script || !root) {
      return ENGLISH;
    }
    return caches.match(script[1]).then(function (kept) {
      return kept || fetch(script[1]);
    }).then(function (answer) {
      return answer.ok ? answer.text() : Promise.reject(new Error("no phrases"));
    }).then(function (text) {
      var phrases = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
      return { lang: root[1], rtl: !!root[2], phrases: phrases };
    });
  }).catch(function () {
    return ENGLISH;
  });
}

/* The words of the owner's kept pages: the page opened last's, else All
   Lists'. */
function ownerWords() {
  return ownerCache().then(function (cache) {
    if (!cache) {
      return null;
    }
    return cache.match(LAST_PAGE).then(function (last) {
      return last ? last.text() : "/lists";
    }).then(function (path) {
      return cache.match(path);
    }).then(function (page) {
      return page || cache.match("/lists");
    });
  }).then(wordsOf, function () {
    return ENGLISH;
  });
}

/* The words of a shared link's kept list. */
function linkWords(link) {
  return linkCacheName(link).then(function (name) {
    return caches.match(link.home, { cacheName: name });
  }).then(wordsOf, function () {
    return ENGLISH;
  });
}

/* `key`'s phrase in `words`, each {{name}} filled from `values`. */
function say(words, key, values) {
  var text = words.phrases[key];
  if (typeof text !== "string") {
    text = ENGLISH.phrases[key];
  }
  return text.replace(/\{\{(\w+)\}\}/g, function (tag, name) {
    return values && name in values ? values[name] : tag;
  });
}

function escapeHTML(text) {
  return text.replace(/[&<>"]/g, function (character) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" }[character];
  });
}

/* The page of what the network could not answer (`key`: pageNotKept or
   changeNotSent), in `words`, leading back to All Lists, or to the shared
   list `home`. */
function offlinePage(words, key, home) {
  var back = home
    ? "<a href=\"" + home + "\">" + escapeHTML(say(words, "theSharedList")) + "</a>"
    : "<a href=\"/lists\">" + escapeHTML(say(words, "allLists")) + "</a>";
  var title = escapeHTML(say(words, "offlineTitle"));
  var html = "<!doctype html><html lang=\"" + escapeHTML(words.lang) + "\"" +
    (words.rtl ? " dir=\"rtl\"" : "") + "><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<title>" + title + " \u00b7 Checklists</title></head><body><main><h1>" + title + "</h1><p>" +
    escapeHTML(say(words, key)) + "</p><p>" + back + "</p></main></body></html>";
  return new Response(html, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }
  });
}

/* The offline page in the owner's words, or a shared link's. */
function offlinePageFor(key, link) {
  return (link ? linkWords(link) : ownerWords()).then(function (words) {
    return offlinePage(words, key, link ? link.home : null);
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
    return response || offlinePageFor(event.request.method === "GET" ? "pageNotKept" : "changeNotSent");
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  var link = linkOf(url);
  if (link) {
    event.respondWith(linkFetch(event, request, url, link));
    return;
  }
  if (isSecret(url)) {
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
  var edit = request.method === "POST" && navigated
    ? /^\/lists\/([0-9]+)(\/items\/[0-9]+(\/delete)?)?$/.exec(url.pathname) : null;
  var body = edit ? request.clone().text() : null;
  event.respondWith(fetch(request).then(function (response) {
    if (request.method === "GET" && isPage(url)) {
      event.waitUntil(keepPage(url, response, navigated));
    } else if (response.type === "basic" && request.method !== "GET") {
      // A change's answer waits for the owner's check: a queued change
      // refused because the owner changed finds the queue dropped already.
      return noteOwner(response).then(function () {
        return response;
      });
    } else if (response.type === "basic") {
      event.waitUntil(noteOwner(response));
    }
    return response;
  }, function (error) {
    if (!navigated) {
      throw error;
    }
    if (edit) {
      return Promise.all([body, ownerWords()]).then(function (read) {
        return queueEdit(url.pathname, "/lists/" + edit[1], read[0], read[1]);
      }).then(function () {
        return Response.redirect("/lists/" + edit[1], 303);
      }, function () {
        return fromCacheFor(event, url);
      });
    }
    return fromCacheFor(event, url);
  }));
});

/* An item's edit form, an item's Delete button or a list's Edit List
   form (forms without the page script's help) sent with no network: kept
   at the end of the queue, as app.js keeps a toggle, and answered as the
   server would, with the list, where app.js shows it and sends it later.
   Saving the same fields twice is saving them once; a deleted item
   deleted again finds its deletion. What it is called is in `words`. */
function queueEdit(path, list, body, words) {
  var fields = new URLSearchParams(body);
  var what = path === list
    ? say(words, "renameListTo", { name: say(words, "quoted", { text: fields.get("name") || "" }) })
    : /\/delete$/.test(path) ? say(words, "deleteAnItem")
      : say(words, "saveItem", { item: say(words, "quoted", { text: fields.get("text") || "" }) });
  return self.ChecklistsQueue.add("changes", {
    path: path, list: list, body: body, at: Date.now(), what: what
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
      var link = url.origin === self.location.origin ? linkOf(url) : null;
      if (url.origin !== self.location.origin || (isSecret(url) && !link)) {
        return null;
      }
      var request = new Request(url.href, { credentials: "same-origin" });
      return fetch(request).then(function (response) {
        if (link) {
          return noteLinkAnswer(link, url, request, response);
        }
        if (isShell(url)) {
          return keepShell(request, response);
        }
        return isPage(url) ? keepPage(url, response, data.page === url.pathname) : noteOwner(response);
      }).catch(function () {});
    })));
  }
});
