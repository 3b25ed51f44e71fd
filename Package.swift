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
  ],
  targets: [
    // Transport: libfcgi, confined to CFastCGI (module map only) and FastCGI (every FCGX_* call).
    .systemLibrary(
      name: "CFastCGI",
      pkgConfig: "fcgi",
      providers: [.apt(["libfcgi-dev"])]
    ),
    .target(name: "FastCGI", dependencies: ["CFastCGI"]),

    // Files: atomic durable writes, locks.
    .target(name: "Storage"),

    // The web layer: routes, forms, visitor cookie, CSRF, ETag, security headers.
    .target(
      name: "ChecklistsWeb",
      dependencies: [
        "FastCGI",
        "Storage",
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),

    // The executable: serve, generate, check.
    .executableTarget(
      name: "checklists",
      dependencies: [
        "FastCGI",
        "Storage",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),

    .testTarget(name: "FastCGITests", dependencies: ["FastCGI"]),
    .testTarget(name: "StorageTests", dependencies: ["Storage"]),
    .executableTarget(
      name: "bench-web",
      dependencies: ["ChecklistsWeb", "FastCGI"],
      path: "Benchmarks/Web"
    ),

    .testTarget(name: "ChecklistsWebTests", dependencies: ["ChecklistsWeb", "FastCGI"]),

    // Preferences: UserDefaults semantics for web visitors (cookie, persistent, registration).
    .target(
      name: "Preferences",
      dependencies: ["Storage", .product(name: "Logging", package: "swift-log")]
    ),
    .testTarget(
      name: "PreferencesTests",
      dependencies: ["Preferences", "Storage", .product(name: "Logging", package: "swift-log")]
    ),
    // The child process of PreferencesTests (concurrency across processes, kill -9).
    .executableTarget(
      name: "preferences-tool",
      dependencies: ["Preferences", .product(name: "Logging", package: "swift-log")],
      path: "Tests/Tools/PreferencesTool"
    ),
    .executableTarget(
      name: "bench-preferences",
      dependencies: ["Preferences", "Storage", .product(name: "Logging", package: "swift-log")],
      path: "Benchmarks/Preferences"
    ),
  ],
  swiftLanguageModes: [.v6]
)
