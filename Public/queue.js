/*
 * Checklists: the queue of changes made offline, in this browser's
 * IndexedDB, shared by the pages (app.js, which queues and sends them) and
 * the service worker (sw.js, which queues an item's edit form and drops the
 * queue when the browser's owner changes). Loaded by app.js once the page
 * has loaded (the address its own tag names in data-queue: a first visit
 * never waits for it), and by the worker with importScripts; both name it
 * with its version (/queue.js?v=...), as every other script, so that a
 * browser that keeps it for a year never mixes two versions of the
 * database's shape.
 *
 * The database checklists-offline holds three stores:
 * - changes: what waits to be sent, in the order made (app.js);
 * - refused: what the server refused on replay, with its words, shown
 *   until dismissed;
 * - dropped: how many changes an earlier owner of this browser left unsent
 *   (a count, never their words: they are not this visitor's), shown until
 *   dismissed.
 *
 * Every connection is closed once its transaction is done, so that an
 * upgrade of the shape is never blocked by a page left open.
 */
(function (scope) {
  "use strict";

  var NAME = "checklists-offline";
  var VERSION = 2;
  var STORES = ["changes", "refused", "dropped"];

  function open() {
    return new Promise(function (resolve, reject) {
      var opening = scope.indexedDB.open(NAME, VERSION);
      opening.onupgradeneeded = function () {
        STORES.forEach(function (name) {
          if (!opening.result.objectStoreNames.contains(name)) {
            opening.result.createObjectStore(name, { keyPath: "id", autoIncrement: true });
          }
        });
      };
      opening.onerror = function () {
        reject(opening.error);
      };
      opening.onsuccess = function () {
        resolve(opening.result);
      };
    });
  }

  /* Runs `work(stores...)` in one transaction over `names`; resolves with
     what it returned (a request's result, once the transaction is done). */
  function withStores(names, mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(names, mode);
        var result = work.apply(null, names.map(function (name) {
          return transaction.objectStore(name);
        }));
        transaction.oncomplete = function () {
          db.close();
          resolve(result && typeof result.onsuccess !== "undefined" ? result.result : result);
        };
        transaction.onerror = transaction.onabort = function () {
          db.close();
          reject(transaction.error);
        };
      });
    });
  }

  function allOf(name) {
    return withStores([name], "readonly", function (store) {
      return store.getAll();
    });
  }

  /* Adds `entry` at the end of store `name`. */
  function add(name, entry) {
    return withStores([name], "readwrite", function (store) {
      return store.add(entry);
    });
  }

  /* True for an entry of a shared list's page (/s/...): made through
     its link, which any browser holding the link may use, never the
     owner's. */
  function isLinks(entry) {
    return typeof entry.list === "string" && entry.list.indexOf("/s/") === 0;
  }

  /* Deletes from `store` every entry `drop` picks; calls `done` with how
     many went. */
  function deleteEach(store, drop, done) {
    var reading = store.getAll();
    reading.onsuccess = function () {
      var gone = reading.result.filter(drop);
      gone.forEach(function (entry) {
        store.delete(entry.id);
      });
      done(gone.length);
    };
  }

  /* The browser's owner changed: the last owner's unsent changes and
     refusals go, in one transaction (those made through a shared link
     stay: they were never the owner's), and how many changes went is
     kept for the notice. Resolves with that number. */
  function dropAll() {
    var count = 0;
    function owners(entry) {
      return !isLinks(entry);
    }
    return withStores(STORES, "readwrite", function (changes, refused, dropped) {
      deleteEach(refused, owners, function () {});
      deleteEach(changes, owners, function (gone) {
        count = gone;
        if (gone > 0) {
          dropped.add({ count: gone, at: Date.now() });
        }
      });
    }).then(function () {
      return count;
    });
  }

  scope.ChecklistsQueue = {
    withStores: withStores, allOf: allOf, add: add, dropAll: dropAll, isLinks: isLinks
  };
})(self);
