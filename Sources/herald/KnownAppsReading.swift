import FoundationEssentials
import HeraldCore
import HeraldDesktop

extension KnownApps {
    /// The folder of the state files and the attention ledger: `$XDG_STATE_HOME/herald`.
    static var stateFolder: String { BaseDirectories(environment: ProcessEnvironment.read()).stateHome + "/herald" }

    /// The app ids of the state files in `folder`, sorted (`stateFileApps(_:)`).
    static func stateFileApps(in folder: String) -> [String] {
        stateFileApps(entries(of: folder))
    }

    /// The apps this user's Herald has seen, under the key files `switches`: the state folder's
    /// and the ledger's as far as they can be read (a ledger that cannot be read names none; a
    /// check says what is wrong with it).
    static func read(switches: OffSwitches) -> KnownApps {
        let ledger = (try? FileAttentionLedgerStore(environment: ProcessEnvironment.read()).snapshot()) ?? AttentionLedger()
        return KnownApps(stateFiles: entries(of: stateFolder), ledger: ledger, switches: switches)
    }

    /// The names in `folder`; none when it cannot be read.
    private static func entries(of folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }
}
