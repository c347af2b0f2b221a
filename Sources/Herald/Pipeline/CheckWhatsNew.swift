import FoundationEssentials
import HeraldCore

/// What's new (`WhatsNewPolicy`, `Configuration.whatsNew`): the message a check adds to the
/// feed's candidates when the app runs a newer version than the one last seen. It joins at the
/// plan, after the feed stage, whatever that stage brought: a feed not due, or one that
/// failed, does not keep it back.
extension Check {
    /// The record the plan keeps and the message it adds, for a check on `state`; `nil` when the
    /// app does not show What's new or gives no version.
    func whatsNew(in state: HeraldState) -> (seen: HeraldState.SeenVersion, messages: [FeedEntry])? {
        guard configuration.whatsNew, let running = configuration.check.appVersion else { return nil }
        let languages = configuration.check.audience?.languages ?? []
        let offer = WhatsNewPolicy.offer(running: running, state: state) { [self] lastSeen, running in
            metainfo.flatMap { AppStreamReleases.notes(in: $0, after: lastSeen, upTo: running, languages: languages) }
        }
        return (offer.seen, offer.message.map { [$0] } ?? [])
    }

    /// Whether What's new has something for a check on `state`: a version to record or a message.
    func whatsNewChanges(_ state: HeraldState?) -> Bool {
        guard let state, let whatsNew = whatsNew(in: state) else { return false }
        return whatsNew.seen != state.seenVersion || !whatsNew.messages.isEmpty
    }

    /// Reads the app's metainfo from the data folders of the configuration's environment; one
    /// that cannot be read has no notes.
    func readMetainfo() -> String? {
        let directories = BaseDirectories(environment: configuration.environment)
        return (try? AppStreamReleases.read(appID: configuration.appID, dataFolders: [directories.dataHome] + directories.dataDirs))?.text
    }
}
