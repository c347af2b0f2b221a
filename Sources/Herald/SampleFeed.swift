import FoundationEssentials
import HeraldCore

/// A sample feed for demos: what `herald demo` and the GTK demo app show.
package enum SampleFeed {
    /// Three messages: one with a link and its own button label, one plain tip answered with
    /// OK, one with a link, the default label and a version range.
    package static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>2026/11/01</key>
            <dict>
                <key>Title</key><string>Herald 0.1 is out</string>
                <key>Message</key><string>Your app can now tell its users about new features, right on their desktop.</string>
                <key>ActionURL</key><string>https://example.org/herald/releases/0.1</string>
                <key>ActionButton</key><string>Release notes</string>
            </dict>
            <key>2026/11/10</key>
            <dict>
                <key>Title</key><string>Tip: seen once</string>
                <key>Message</key><string>Herald remembers each message you answer, so it does not come back.</string>
            </dict>
            <key>2026/11/20</key>
            <dict>
                <key>Title</key><string>Publish your own feed</string>
                <key>Message</key><string>One static plist or JSON file on any web server is all it takes.</string>
                <key>ActionURL</key><string>https://example.org/herald/feeds</string>
                <key>MinVersion</key><string>0.1</string>
            </dict>
        </dict>
        </plist>
        """

    /// Herald's icon name in the hicolor theme (`icons/`), shown where the app has no icon of its own.
    package static let icon = "org.herald.Herald"

    /// Writes the sample feed beside the app's cached feed and returns its `file://` URL.
    package static func install(appID: String, environment: [String: String]) throws -> String {
        let paths = try HeraldPaths(appID: appID, environment: environment)
        let path = String(paths.cachedFeedFile.dropLast(".feed".count)) + ".sample.plist"
        try RegularFile.write(Data(plist.utf8), to: path)
        return "file://" + path
    }
}
