// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Checklists",
  products: [
    .executable(name: "checklists", targets: ["checklists"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
    .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
    // multipart/form-data of the import upload (Forms/MultipartForm.swift only).
    .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
  ],
  targets: [
    // Transport: libfcgi, confined to CFastCGI (module map only) and FastCGI (every FCGX_* call).
    .systemLibrary(
      name: "CFastCGI",
      pkgConfig: "fcgi",
      providers: [.apt(["libfcgi-dev"])]
    ),
    .target(
      name: "FastCGI",
      dependencies: [
        "CFastCGI", .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),

    // QR codes: libqrencode, confined to CQRencode (module map only) and QRCode (every
    // QRcode_* call, the modules and their SVG).
    .systemLibrary(
      name: "CQRencode",
      pkgConfig: "libqrencode",
      providers: [.apt(["libqrencode-dev"])]
    ),
    .target(name: "QRCode", dependencies: ["CQRencode"]),

    // Markdown: cmark-gfm and its extensions, confined to CCMarkGFM (module map only) and
    // MarkdownOutline (every cmark_* call: a document's headings and tasks as plain values).
    .systemLibrary(
      name: "CCMarkGFM",
      pkgConfig: "libcmark-gfm",
      providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
    ),
    .target(name: "MarkdownOutline", dependencies: ["CCMarkGFM"]),
    .testTarget(name: "MarkdownOutlineTests", dependencies: ["MarkdownOutline"]),

    // The model: checklists, items, limits, landing rule, first run (Foundation only).
    .target(name: "ChecklistsModel", dependencies: ["Support"]),

    // Small shared pieces: hex, the LRU cache, the lock box, dates by arithmetic.
    .target(name: "Support"),

    // What an operator scrapes: the metrics' names and help, the requests by route and status
    // and the service's counters, all atomics made at start (no library on the request's path:
    // see RequestMetrics), and Prometheus' text format.
    .target(name: "ServiceMetrics"),
    // The small plain-HTTP listener of `serve --metrics` and what it answers.
    .target(name: "MetricsExposition", dependencies: ["ServiceMetrics", "FastCGI"]),
    .testTarget(
      name: "ServiceMetricsTests",
      dependencies: ["ServiceMetrics", "MetricsExposition", "FastCGI", "Support"]
    ),

    // Property lists, read and written without Foundation's plist code: the strict
    // readers (binary and XML), the one value type, the one XML writer.
    // Cross-module optimisation in release: the readers' objects and the writer's generic
    // pieces are called per value from Interchange and Storage, and a call that cannot be
    // inlined or specialised across the module boundary doubled an import's reading time.
    .target(
      name: "PropertyList", dependencies: ["Support"],
      swiftSettings: [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
    ),
    .testTarget(name: "PropertyListTests", dependencies: ["PropertyList", "TestSupport"]),

    // The storage seam: the DocumentStore protocol every engine implements, its plain types
    // (DocumentError, DocumentVersion, DocumentSnapshot, DocumentLock), the one cache of
    // decoded documents (VersionedFile) and MemoryDocuments, the engine in memory.
    .target(name: "Documents", dependencies: ["Support"]),
    .testTarget(name: "DocumentsTests", dependencies: ["Documents", "Support"]),

    // Files, the default engine behind the seam (LocalDocuments): every system call on a file
    // (Internals/Syscalls.swift), atomic durable writes, flock, identities and snapshots.
    // CFileSystem: the Linux calls glibc declares only under _GNU_SOURCE (renameat2, leases).
    .target(name: "CFileSystem"),
    .target(
      name: "FileSystem",
      dependencies: [
        "CFileSystem", "Documents", .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),

    // PostgreSQL, the store several hosts share: libpq, confined to CLibPQ (module map only)
    // and PostgresStore (every PQ* call in Internals/LibPQ.swift), behind the DocumentStore seam.
    .systemLibrary(
      name: "CLibPQ",
      pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"])]
    ),
    .target(
      name: "PostgresStore",
      dependencies: [
        "CLibPQ", "Documents", "Support", "ServiceMetrics",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "PostgresStoreTests",
      dependencies: [
        "PostgresStore", "Documents", "FileSystem", "Support", "TestSupport", "Storage",
        "ChecklistsModel", "ServiceMetrics",
        "Preferences", .product(name: "Logging", package: "swift-log"),
      ]
    ),

    // The checklists files: the store, its file format, the visitor directories. The seam's
    // types come from Documents; FileSystem gives the default engine (LocalDocuments) and the
    // clean-up of an index's leftover temporary files.
    .target(
      name: "Storage",
      dependencies: [
        "ChecklistsModel", "Documents", "FileSystem", "Support", "PropertyList", "ServiceMetrics",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),

    // gzip: zlib, confined to CZlib (module map only) and ChecklistsWeb's Compression/Gzip.swift
    // (every deflate and inflate call): the static files at `generate`, the memo's kept pages.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

    // The web layer: routes, forms, visitor cookie, CSRF, ETag, security headers.
    .target(
      name: "ChecklistsWeb",
      dependencies: [
        "CZlib",
        "FastCGI",
        "ServiceMetrics",
        "Documents",
        "FileSystem",
        "Support",
        "Storage",
        "Preferences",
        "ChecklistsModel",
        "HTMLTemplates",
        "QRCode",
        "Interchange",
        "ICalendar",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "MultipartKit", package: "multipart-kit"),
      ]
    ),

    // iCalendar (RFC 5545) read and written: content lines, components, date values;
    // strict and bounded, for what calendar apps send (Support only).
    .target(name: "ICalendar", dependencies: ["Support"]),
    .testTarget(name: "ICalendarTests", dependencies: ["ICalendar"]),

    // Import and export: the file formats a visitor takes out and brings in.
    .target(
      name: "Interchange",
      dependencies: [
        "ChecklistsModel", "Support", "PropertyList", "MarkdownOutline", "ICalendar",
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
    .testTarget(
      name: "InterchangeTests",
      dependencies: [
        "Interchange", "PropertyList", "ChecklistsModel", "TestSupport", "AppArchiveFixture",
        "ICalendar",
      ]),
    // The iOS app's Checklists.plist as its editions wrote it (NSKeyedArchiver or
    // PropertyListEncoder), for the tests and bench-web; app-archive-writer writes one
    // from a JSON description for the end-to-end tests.
    .target(name: "AppArchiveFixture", path: "Tests/Tools/AppArchiveFixture"),
    .executableTarget(
      name: "app-archive-writer", dependencies: ["AppArchiveFixture"],
      path: "Tests/Tools/AppArchiveWriter"),
    // Mustache templates, parsed once and rendered into bytes (Foundation only).
    .target(name: "HTMLTemplates"),

    // The executable: serve, generate, check, prune, migrate.
    .executableTarget(
      name: "checklists",
      dependencies: [
        "FastCGI",
        "Documents",
        "FileSystem",
        "PostgresStore",
        "Support",
        "Storage",
        "Preferences",
        "ChecklistsModel",
        "ChecklistsWeb",
        "ServiceMetrics",
        "MetricsExposition",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),

    // What every test target shares: temporary directories, built tools, seeded randomness.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    // The in-process browser of the web layer's tests, which the benchmarks use too.
    .target(
      name: "WebTestSupport",
      dependencies: [
        "ChecklistsWeb", "FastCGI", "TestSupport", "ServiceMetrics",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Tests/WebTestSupport"),

    .testTarget(
      name: "FastCGITests",
      dependencies: [
        "FastCGI", "TestSupport", .product(name: "HTTPTypes", package: "swift-http-types"),
      ]
    ),
    .testTarget(name: "ChecklistsModelTests", dependencies: ["ChecklistsModel", "TestSupport"]),
    .testTarget(name: "SupportTests", dependencies: ["Support"]),
    .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "TestSupport"]),
    .testTarget(
      name: "FileSystemTests",
      dependencies: [
        "FileSystem", "Documents", "Support", "TestSupport",
        .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    .testTarget(
      name: "StorageTests",
      dependencies: [
        "Storage", "Documents", "FileSystem", "ChecklistsModel", "TestSupport", "ServiceMetrics",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The executable's maintenance commands (check, prune).
    .testTarget(
      name: "checklistsTests",
      dependencies: [
        "checklists", "Storage", "Preferences", "Documents", "FileSystem", "Support",
        "ChecklistsModel", "PostgresStore", "TestSupport",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // A child process for StorageTests' crash and concurrency tests.
    .executableTarget(
      name: "store-child",
      dependencies: [
        "Storage", "ChecklistsModel", .product(name: "Logging", package: "swift-log"),
      ],
      path: "Tests/Tools/StoreChild"
    ),
    // mallinfo2 for bench-store (glibc's malloc.h is not in Swift's Glibc module).
    .target(name: "CBenchSupport", path: "Benchmarks/CBenchSupport"),
    .executableTarget(
      name: "bench-store",
      dependencies: [
        "Storage", "Documents", "FileSystem", "ChecklistsModel", "CBenchSupport",
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Benchmarks/Store"
    ),
    .executableTarget(
      name: "bench-scale",
      dependencies: [
        "ChecklistsWeb", "ChecklistsModel", "Storage", "FastCGI",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Benchmarks/Scale"
    ),
    .executableTarget(
      name: "bench-web",
      dependencies: [
        "ChecklistsWeb", "FastCGI", "Storage", "ChecklistsModel", "QRCode",
        "Interchange", "AppArchiveFixture", "ServiceMetrics", "WebTestSupport", "TestSupport",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Benchmarks/Web"
    ),

    // Search over 12,000 items (the size cap's largest owner), in-process.
    .executableTarget(
      name: "bench-search",
      dependencies: ["ChecklistsModel"],
      path: "Benchmarks/Search"
    ),

    // Settings → Import and Export of 5,000 items, in-process (make bench runs it).
    .executableTarget(
      name: "bench-transfer",
      dependencies: [
        "ChecklistsWeb", "FastCGI", "Storage", "ChecklistsModel", "Interchange", "WebTestSupport",
        "TestSupport",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Benchmarks/Transfer"
    ),

    .testTarget(
      name: "ChecklistsWebTests",
      dependencies: [
        "ChecklistsWeb", "FastCGI", "Preferences", "ChecklistsModel", "HTMLTemplates", "Storage",
        "Documents", "FileSystem", "Support", "TestSupport", "Interchange", "ServiceMetrics",
        "WebTestSupport", "ICalendar",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .testTarget(name: "HTMLTemplatesTests", dependencies: ["HTMLTemplates", "TestSupport"]),
    .executableTarget(
      name: "bench-templates",
      dependencies: ["HTMLTemplates"],
      path: "Benchmarks/Templates"
    ),
    // Preferences: UserDefaults semantics for web visitors (cookie, persistent, registration).
    // The seam's types come from Documents; FileSystem gives the default engine only.
    .target(
      name: "Preferences",
      dependencies: [
        "Documents", "FileSystem", "Support", "PropertyList",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "PreferencesTests",
      dependencies: [
        "Preferences", "PropertyList", "Documents", "FileSystem", "Support", "TestSupport",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The child process of PreferencesTests (concurrency across processes, kill -9).
    .executableTarget(
      name: "preferences-tool",
      dependencies: ["Preferences", .product(name: "Logging", package: "swift-log")],
      path: "Tests/Tools/PreferencesTool"
    ),
    .executableTarget(
      name: "bench-preferences",
      dependencies: [
        "Preferences", "Documents", "FileSystem", .product(name: "Logging", package: "swift-log"),
      ],
      path: "Benchmarks/Preferences"
    ),
    // Fuzz targets for the parsers (scripts/fuzz builds it with -D FUZZING and libFuzzer;
    // a plain build is a program that replays corpus files through a target).
    .executableTarget(
      name: "fuzz",
      dependencies: [
        "ChecklistsWeb", "FastCGI", "HTMLTemplates", "Preferences", "Storage", "ChecklistsModel",
        "Interchange", "PropertyList", "AppArchiveFixture", "ICalendar",
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Tests/Fuzz",
      exclude: ["corpus", "lsan.supp"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
