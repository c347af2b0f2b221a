import FoundationEssentials

/// How one check ended, as its one finishing step records it (DESIGN.md D4, D11, D12): what the
/// feed step brought and what became of what the plan claimed. `CheckPolicy.finished` turns it
/// into the state to write, and `ledgerChange` into the attention ledger's, each written once.
package struct CheckEnding: Sendable, Equatable {
    /// What the feed step brought.
    package enum Feed: Sendable, Equatable {
        /// No feed was asked for: not due, declined, or a launch that shows prompts only.
        case notRun
        /// The feed was fetched and decoded (a 200, or a 304 whose cached copy decoded).
        case fetched(FetchedFeed)
        /// The fetch did not bring a feed. `countsAsFailure` for a fetch, feed or signature
        /// problem, which the backoff holds back; a missing library counts as neither. A server
        /// that answered 429 or 503 with a `Retry-After` gives `retryAfter`, which the state keeps.
        case failed(reason: String, countsAsFailure: Bool, retryAfter: RetryAfter? = nil)

        /// Whether the fetch failed.
        package var isFailure: Bool { if case .failed = self { true } else { false } }
    }

    /// What a fetched feed leaves in the state whatever the check makes of it, and what a
    /// counted check accepts.
    package struct FetchedFeed: Sendable, Equatable {
        /// The record of the copy the fetch left in the cache (`LoadedFeed.cacheRecord`); `nil`
        /// leaves the state's record as it is.
        package var cacheRecord: HeraldState.CachedFeed?
        /// The verified signature; `nil` for an unsigned feed.
        package var signature: VerifiedSignature?

        /// A verified signature: its metadata and bytes, and the feed URL it was fetched from.
        package struct VerifiedSignature: Sendable, Equatable {
            package var metadata: FeedSignature.Metadata
            package var bytes: Data
            package var url: String
        }

        /// Creates the record of a fetched feed.
        package init(cacheRecord: HeraldState.CachedFeed? = nil, signature: (metadata: FeedSignature.Metadata, bytes: Data, url: String)? = nil) {
            self.cacheRecord = cacheRecord
            self.signature = signature.map { VerifiedSignature(metadata: $0.metadata, bytes: $0.bytes, url: $0.url) }
        }
    }

    /// Messages and prompts by key and name: claims the check gives back.
    package struct Claims: Sendable, Equatable {
        /// Message keys.
        package var messages: [String]
        /// Prompt names.
        package var prompts: [String]

        /// Creates a list of claims.
        package init(messages: [String] = [], prompts: [String] = []) {
            self.messages = messages
            self.prompts = prompts
        }
    }

    /// What the presentation did with what the plan claimed.
    package struct Presentation: Sendable, Equatable {
        /// The messages shown or handed over, in the order shown.
        package var shownMessages: [String] = []
        /// How many prompts were shown.
        package var shownPrompts = 0
        /// The claims of what was not shown.
        package var notShown = Claims()
        /// The messages shown without buttons: showing them is viewing them (D11).
        package var viewedWithoutButtons: [String] = []
        /// The prompts shown without buttons: showing them is their action (D11).
        package var actedWithoutButtons: [Prompt] = []
        /// How many notifications the server refused.
        package var refused = 0
        /// How many messages were left out because no application here opens their links.
        package var unopenable = 0
        /// Whether the plan took room in the attention ledger, which the showings settle.
        package var budgeted = false

        /// Creates an empty presentation; the check fills it in as it shows.
        package init() {}

        /// Whether anything reached the screen, or was handed over.
        package var showedAnything: Bool { !shownMessages.isEmpty || shownPrompts > 0 }
    }

    /// Where the check stopped.
    package enum Screen: Sendable, Equatable {
        /// The plan had nothing to show, or the check ended before it planned (muted, stopped
        /// while the feed was on its way): nothing was claimed.
        case nothingShown
        /// The desktop asks for quiet: nothing is shown, `released` goes, and the messages the
        /// check would have shown wait in the attention ledger, keeping their place.
        case deferredForQuiet(released: Claims, waiting: [AttentionCandidate])
        /// No notification server: nothing is shown, `released` goes (D12).
        case noServer(released: Claims)
        /// Told to stop (`closeAll`) before the presentation: nothing is planned or shown.
        case stopped
        /// The presentation ran.
        case presented(Presentation)
    }

    /// What the feed step brought.
    package var feed: Feed
    /// Where the check stopped.
    package var screen: Screen
    /// When the check planned: the time the outcome and the showings are recorded at.
    package var plannedAt: Date
    /// The time now: what was shown without buttons, a refusal and a deferral are recorded at it.
    package var now: Date

    /// Creates the ending of a check.
    package init(feed: Feed, screen: Screen, plannedAt: Date, now: Date) {
        self.feed = feed
        self.screen = screen
        self.plannedAt = plannedAt
        self.now = now
    }

    /// Whether the ending leaves the state as it is, so the check writes nothing at all (and
    /// takes no lock): nothing fetched, claimed or shown.
    package var recordsNothing: Bool {
        guard case .notRun = feed else {
            if case .failed(_, false, _) = feed, case .nothingShown = screen { return true }
            return false
        }
        switch screen {
        case .nothingShown, .stopped: return true
        case .deferredForQuiet(let released, let waiting): return released == Claims() && waiting.isEmpty
        case .noServer(let released): return released == Claims()
        case .presented: return false
        }
    }

    /// How the attention ledger changes: nothing, the room the plan took settled by what was
    /// shown (nothing, without a server), or the messages deferred for quiet put to wait.
    package enum LedgerChange: Sendable, Equatable {
        /// The ledger is not touched.
        case none
        /// The plan's room is settled: what was shown keeps its room, the rest goes back.
        case settle(shown: Set<String>)
        /// The check's room goes back, and these wait, keeping their place.
        case deferForQuiet([AttentionCandidate])
    }

    /// How the attention ledger changes at this ending.
    package var ledgerChange: LedgerChange {
        switch screen {
        case .presented(let presentation) where presentation.budgeted: return .settle(shown: Set(presentation.shownMessages))
        case .deferredForQuiet(_, let waiting) where !waiting.isEmpty: return .deferForQuiet(waiting)
        // The plan claimed (and may have taken room for) messages no server can show: room back.
        case .noServer(let released) where !released.messages.isEmpty: return .settle(shown: [])
        default: return .none
        }
    }
}

extension CheckPolicy {
    /// The failure a check records when the server refused every notification it was given.
    package static let refusedEverything = "the notification server refused every message"

    /// The state a check's one finishing step writes (DESIGN.md D4, D11, D12): the one place that
    /// decides whether a check succeeded.
    ///
    /// A fetched and decoded feed is a successful check, which records the cached copy and
    /// accepts its signature; a fetch, feed or signature failure is a failed one, held back by the
    /// backoff. A check that ends without showing what it had (no server, the desktop's quiet, a
    /// stop) or with a state problem counts as neither, so the next check tries again; the cached
    /// copy's record stands, as the bytes are on disk. A server that refused everything it was
    /// given showed nothing: the check counts as failed, on top of the failures before it. Nor
    /// does a check count that showed nothing because no application here opens its messages'
    /// links: once a browser is set up, the next launch checks again.
    ///
    /// - Parameter claimant: the check whose claims of what it did not show are released.
    package static func finished(_ ending: CheckEnding, in state: HeraldState, claimant: Claimant) -> HeraldState {
        var state = state
        switch ending.screen {
        case .nothingShown:
            return recordingFeed(ending.feed, in: state, counted: true, now: ending.plannedAt)
        case .stopped:
            return recordingFeed(ending.feed, in: state, counted: false, now: ending.now)
        case .noServer(let released):
            // A fetch that failed is a failure all the same; a fetched feed does not count.
            state = release(messages: released.messages, prompts: released.prompts, heldBy: claimant, in: state)
            return recordingFeed(ending.feed, in: state, counted: ending.feed.isFailure, now: ending.plannedAt)
        case .deferredForQuiet(let released, _):
            state = release(messages: released.messages, prompts: released.prompts, heldBy: claimant, in: state)
            return recordingFeed(ending.feed, in: state, counted: ending.feed.isFailure, now: ending.now)
        case .presented(let presentation):
            state = release(messages: presentation.notShown.messages, prompts: presentation.notShown.prompts, heldBy: claimant, in: state)
            state = recordShown(presentation.shownMessages, in: state, now: ending.plannedAt)
            for key in presentation.viewedWithoutButtons { state = apply(.view, to: key, state: state, now: ending.now) }
            for prompt in presentation.actedWithoutButtons { state = PromptPolicy.apply(.action, to: prompt, in: state, now: ending.now) }
            if presentation.refused > 0, !presentation.showedAnything {
                state = recordingFeed(ending.feed, in: state, counted: false, acceptsSignature: true, now: ending.plannedAt)
                return recordFailure(state, reason: refusedEverything, now: ending.now)
            }
            if presentation.unopenable > 0, !presentation.showedAnything {
                return recordingFeed(ending.feed, in: state, counted: false, acceptsSignature: true, now: ending.plannedAt)
            }
            return recordingFeed(ending.feed, in: state, counted: true, now: ending.plannedAt)
        }
    }

    /// The state with the feed step recorded: `counted`, a fetched feed is a success and a
    /// failure counts as one; otherwise only the cached copy's record is kept (and, with
    /// `acceptsSignature`, the signature, whose version only rises).
    private static func recordingFeed(_ feed: CheckEnding.Feed, in state: HeraldState, counted: Bool, acceptsSignature: Bool = false,
                                      now: Date) -> HeraldState {
        var state = state
        switch feed {
        case .notRun:
            return state
        case .failed(let reason, let countsAsFailure, let retryAfter):
            return counted && countsAsFailure ? recordFailure(state, reason: reason, now: now, retryAfter: retryAfter) : state
        case .fetched(let fetched):
            if counted {
                state = recordSuccess(state, now: now)
            } else if acceptsSignature, state.ignored == nil {
                // The feed was read: the first launch is behind, though the check does not count.
                state.ignored = []
            }
            if let record = fetched.cacheRecord { state.cachedFeed = record }
            if counted || acceptsSignature, let signature = fetched.signature {
                state.acceptSignature(signature.metadata, bytes: signature.bytes, from: signature.url)
            }
            return state
        }
    }
}
