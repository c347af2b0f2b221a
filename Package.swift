// swift-tools-version: 6.1
// Herald: desktop notifications from an iNotify-style feed, for Linux apps.
// Copyright (c) 2026 the Herald authors. MIT licence: see LICENSE.
import Foundation
import PackageDescription

let package = Package(
    name: "Herald",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Herald", targets: ["Herald"]),
        .library(name: "HeraldTesting", targets: ["HeraldTesting"]),
        .executable(name: "herald", targets: ["herald"]),
        .executable(name: "herald-agent", targets: ["herald-agent"]),
        .executable(name: "herald-gtk-demo", targets: ["herald-gtk-demo"]),
        .executable(name: "herald-inbox", targets: ["herald-inbox"]),
        // libherald-1: Herald as a GObject library with introspection, for apps in C, Python,
        // JavaScript and Vala; desktop/libherald/build.sh links it with the Swift runtime inside.
        .library(name: "herald-1", type: .dynamic, targets: ["HeraldGObject"]),
    ],
    // The `herald` tool's command line, on by default. An app that depends on the library with
    // `traits: []` never resolves or fetches swift-argument-parser.
    traits: [
        .trait(name: "CommandLineTool", description: "Builds the herald tool, whose command line needs swift-argument-parser."),
        .default(enabledTraits: ["CommandLineTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // GLib and GObject, linked; their headers bring GIO's.
        .systemLibrary(
            name: "CGObject",
            pkgConfig: "gobject-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        // GIO, libsoup 3 and libnotify, loaded on first use: a check that is not due maps none
        // of them. At run time: libglib2.0-0, libsoup-3.0-0, glib-networking and libnotify4.
        .target(name: "CDesktopLibraries", dependencies: ["CGObject"]),
        // The part of GTK 4 that herald-gtk-demo calls, declared by hand (gtk4's pkg-config flags
        // hold compiler options a package may not pass); GTK 4 and GIO linked as usual. Building
        // the demo needs libgtk-4-dev for libgtk-4.so, and DeclarationsCheckTests its headers.
        .target(
            name: "CGtk",
            dependencies: ["CGObject", "CDesktopLibraries"],
            linkerSettings: [.linkedLibrary("gtk-4"), .linkedLibrary("gio-2.0")]
        ),
        // The part of libadwaita 1.2 that herald-inbox calls, declared by hand as CGtk is.
        .target(name: "CAdwaita", dependencies: ["CGtk"], linkerSettings: [.linkedLibrary("adwaita-1")]),
        .target(name: "HeraldCore"),
        .target(name: "HeraldDesktop", dependencies: ["CDesktopLibraries", "HeraldCore"]),
        .target(name: "Herald", dependencies: ["HeraldCore", "HeraldDesktop"]),
        // What a publisher's tools need (`herald validate`, `herald feed`): no app imports it.
        .target(name: "HeraldPublishing", dependencies: ["HeraldCore"]),
        .target(name: "HeraldTesting", dependencies: ["Herald", "HeraldCore", "HeraldDesktop"]),
        .executableTarget(
            name: "herald",
            dependencies: [
                "Herald",
                "HeraldCore",
                "HeraldDesktop",
                "HeraldPublishing",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CommandLineTool"])),
            ]
        ),
        // The session's agent that D-Bus starts (DESIGN.md D23): a program of its own, without the
        // command line's parser and publishing tools, so the one process that stays maps less.
        .executableTarget(name: "herald-agent", dependencies: ["Herald", "HeraldCore", "HeraldDesktop"]),
        .executableTarget(name: "herald-gtk-demo", dependencies: ["Herald", "CGtk"]),
        // The person's inbox window, org.herald.Inbox: their messages and their switches.
        .executableTarget(name: "herald-inbox", dependencies: ["HeraldCore", "HeraldDesktop", "CAdwaita"]),
        // libherald-1's GObject types (HeraldClient, HeraldMessage) and its public header, in C.
        .target(name: "libherald", dependencies: ["CGObject"]),
        // Herald's public API as the small C interface libherald's types call (@_cdecl).
        .target(name: "HeraldGObject", dependencies: ["Herald", "libherald"]),
        // libFuzzer targets when built by Tests/scripts/fuzz.sh; otherwise a corpus replay tool.
        .executableTarget(name: "herald-fuzz", dependencies: ["HeraldCore", "HeraldPublishing"], path: "Tests/Fuzz/Harness"),
        // What a publisher's feed host carries for a fleet, from Herald's own check policy.
        .target(name: "HeraldFleet", dependencies: ["HeraldCore"], path: "Tests/Fleet/Simulation"),
        .executableTarget(name: "herald-fleet", dependencies: ["HeraldFleet"], path: "Tests/Fleet/Tool"),
        // In-process decoding figures for Tests/scripts/bench.sh.
        .executableTarget(name: "herald-decode-bench", dependencies: ["HeraldCore"], path: "Tests/Benchmarks/Decoding"),
        // How long appLaunched() holds the caller's thread, for Tests/scripts/bench.sh.
        .executableTarget(name: "herald-launch-bench", dependencies: ["Herald", "HeraldCore", "HeraldDesktop"], path: "Tests/Benchmarks/Launch"),
        // The smallest D-Bus-activatable app that uses Herald, for PortalActivationTests.
        .executableTarget(name: "herald-portal-app", dependencies: ["Herald", "HeraldCore", "HeraldDesktop", "CDesktopLibraries"], path: "Tests/PortalApp"),
        .target(name: "HeraldTestSupport", dependencies: ["Herald", "HeraldCore", "HeraldDesktop", "CDesktopLibraries"], path: "Tests/HeraldTestSupport"),
        .testTarget(name: "HeraldCoreTests", dependencies: ["HeraldCore", "HeraldTestSupport"]),
        .testTarget(name: "HeraldPublishingTests", dependencies: ["HeraldPublishing", "HeraldCore", "HeraldTestSupport"]),
        .testTarget(name: "HeraldDesktopTests", dependencies: ["HeraldDesktop", "HeraldTestSupport", "CDesktopLibraries"]),
        .testTarget(name: "HeraldTests", dependencies: ["Herald", "HeraldTesting", "HeraldTestSupport", "CDesktopLibraries"]),
        .testTarget(name: "HeraldTestingTests", dependencies: ["Herald", "HeraldTesting", "HeraldTestSupport"]),
        .testTarget(name: "HeraldEndToEndTests", dependencies: ["Herald", "HeraldCore", "HeraldDesktop", "HeraldTestSupport"]),
        .testTarget(name: "HeraldFleetTests", dependencies: ["HeraldFleet"]),
        // The command line's own values: its option declaration, the autostart entry, the manual.
        .testTarget(name: "heraldTests", dependencies: ["herald", "Herald", "HeraldCore", "HeraldFleet"]),
    ]
)

// The DocC catalog (Sources/Herald/Herald.docc) is built by swift-docc-plugin, declared only when
// asked for (`HERALD_DOCS=1 swift package generate-documentation --target Herald`, which
// Tests/scripts/docs.sh runs), so an app that depends on Herald never resolves it.
if ProcessInfo.processInfo.environment["HERALD_DOCS"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
