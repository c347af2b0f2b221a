import FoundationEssentials

/// What Herald remembers for one app between runs (DESIGN.md D16).
///
/// The in-app hook and the autostart job share it through `StateStore`, which reads and
/// writes it whole under a lock.
public struct HeraldState: Codable, Sendable, Equatable {
    /// Message ids the user ignored. `nil` until the first launch has passed: iNotify's
    /// first-launch marker is the missing ignore list (ORIGINALS.md §1.5).
    package var ignored: Set<String>?
    /// Message ids the user viewed (or acknowledged with OK).
    package var viewed: Set<String>
    /// When each message was last put off with "remind me later" (DESIGN.md D6).
    package var reminded: [String: Date]
    /// Since when each answered message has been missing from the feed: the first successful
    /// check that did not find it. Its answer is forgotten `CheckPolicy.answerRetention` later,
    /// so the state stays small; an id back in the feed loses its entry.
    package var absentSince: [String: Date]
    /// When the last successful check finished. A failed check leaves it (DESIGN.md D4).
    package var lastChecked: Date?
    /// The run of failed checks since the last success, which sets the backoff.
    package var failure: FailureRecord?
    /// The validators of the cached feed, for conditional requests.
    package var cachedFeed: CachedFeed?
    /// Messages claimed by a running check, by key, so that no other check shows them too
    /// (DESIGN.md D16).
    package var presenting: [String: Claim]
    /// Prompts claimed by a running check, by name.
    package var presentingPrompts: [String: Claim]
    /// Messages handed over to outlive their check, by key (DESIGN.md D23): waiting in the
    /// desktop's list or held by the Herald agent until answered or withdrawn.
    package var handedOver: [String: Handover]
    /// Answers the Herald agent recorded for handed-over messages, by key, that the app has not
    /// heard yet: its next launch reports them (`HeraldEvent.answeredWhileAway`) and forgets them.
    package var answeredAway: [String: AnswerGivenAway]
    /// How often and when each message was shown, reminders included, by key: what
    /// `MaxShows` and `MinDaysBetween` are held to. Forgotten with the answers.
    package var shows: [String: ShowRecord]
    /// Each local prompt's uses, reminder and answers, by prompt name.
    package var prompts: [String: PromptState]
    /// This install's place in every `Rollout`, drawn once in 0..<1 the first time a feed has
    /// one, and never sent anywhere: a message with `Rollout` R shows where it is below R %.
    package var rolloutDraw: Double?
    /// The highest signed version accepted from each feed URL, as configured (`{lang}` and
    /// all): a lower one is a replay and is refused (DESIGN.md D20).
    package var feedVersions: [String: UInt64]
    /// The signature accepted with each feed URL's highest version: the same version over
    /// other bytes is a replay too.
    package var feedSignatures: [String: Data]
    /// The app version Herald last saw run, for "What's new" (`WhatsNewPolicy`); `nil` until
    /// a check of an app that turned it on, and in files written before it was kept.
    package var seenVersion: SeenVersion?

    /// An empty state: first launch, nothing answered.
    public init() {
        ignored = nil
        viewed = []
        reminded = [:]
        absentSince = [:]
        lastChecked = nil
        failure = nil
        cachedFeed = nil
        presenting = [:]
        presentingPrompts = [:]
        handedOver = [:]
        answeredAway = [:]
        shows = [:]
        prompts = [:]
        rolloutDraw = nil
        feedVersions = [:]
        feedSignatures = [:]
        seenVersion = nil
    }

    /// The newest signature accepted from `url`, or `nil` when none was.
    package func acceptedSignature(from url: String) -> FeedSignature.Accepted? {
        feedVersions[url].map { FeedSignature.Accepted(version: $0, signature: feedSignatures[url]) }
    }

    /// Records a verified feed's signature as accepted from `url`: the version only rises, and
    /// the signature kept is the one of the highest version.
    package mutating func acceptSignature(_ metadata: FeedSignature.Metadata, bytes: Data, from url: String) {
        let accepted = feedVersions[url] ?? 0
        guard metadata.version >= accepted else { return }
        if metadata.version > accepted || feedSignatures[url] == nil { feedSignatures[url] = bytes }
        feedVersions[url] = metadata.version
    }

    /// Failed checks in a row and when the last one happened.
    package struct FailureRecord: Codable, Sendable, Equatable {
        /// How many checks in a row have failed.
        package var count: Int
        /// When the last failure happened.
        package var lastAttempt: Date
        /// What went wrong last time, for `herald state`.
        package var reason: String
        /// Until when the feed's server asked not to be asked, when the last failure was its
        /// HTTP 429 or 503 with a `Retry-After`: the gate waits for the later of this and the
        /// backoff. Absent from files written before it was kept.
        package var retryAfter: RetryAfter?

        /// Creates a record.
        package init(count: Int, lastAttempt: Date, reason: String, retryAfter: RetryAfter? = nil) {
            self.count = count
            self.lastAttempt = lastAttempt
            self.reason = reason
            self.retryAfter = retryAfter
        }
    }

    /// Where the cached copy came from and its HTTP validators.
    package struct CachedFeed: Codable, Sendable, Equatable {
        /// The feed URL the copy was fetched from; a different URL never reuses it. For a feed
        /// URL with `{lang}`, the URL that answered, which later checks ask (conditionally) alone.
        package var url: String
        /// The `ETag` response header, if the server sent one.
        package var etag: String?
        /// The `Last-Modified` response header, if the server sent one.
        package var lastModified: String?
        /// The feed URL with `{lang}` that `url` answered for; `nil` for a feed URL without it.
        package var template: String?
        /// The user's languages when `url` answered (`LanguageFeedURL.usable`): other languages
        /// start the search over.
        package var languages: [String]?

        /// Creates the record.
        package init(url: String, etag: String?, lastModified: String?, template: String? = nil, languages: [String]? = nil) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
            self.template = template
            self.languages = languages
        }
    }

    /// The app version last seen run, and since which version the notes wait to be read.
    package struct SeenVersion: Codable, Sendable, Equatable {
        /// The version last seen.
        package var version: String
        /// While the What's new message for `version` is unanswered: the version its notes
        /// start after; `nil` when none waits.
        package var unreadSince: String?

        /// Creates a record.
        package init(version: String, unreadSince: String? = nil) {
            self.version = version
            self.unreadSince = unreadSince
        }
    }

    /// How often a message was shown, and when last.
    package struct ShowRecord: Codable, Sendable, Equatable {
        /// Times shown, reminders included.
        package var count: Int
        /// The last time.
        package var last: Date

        /// Creates a record.
        package init(count: Int, last: Date) {
            self.count = count
            self.last = last
        }
    }

    /// A message or prompt held by one running check, and until when it may hold it.
    ///
    /// A claim lapses at `until`, or earlier when its check is gone (the process ended, or the
    /// check in it finished): `isLive` tells the policy which.
    package struct Claim: Codable, Sendable, Equatable {
        /// The process whose check holds it.
        package var processID: Int32
        /// The check within that process; `nil` in files written before checks were named.
        package var check: String?
        /// After this time the claim lapses, whatever happened to the process.
        package var until: Date

        /// Creates a claim.
        package init(processID: Int32, check: String?, until: Date) {
            self.processID = processID
            self.check = check
            self.until = until
        }

        /// Whether the claim holds at `now`: it has not lapsed, and the check that made it still
        /// runs (`isLive`).
        package func holds(at now: Date, isLive: (Claim) -> Bool) -> Bool {
            until > now && isLive(self)
        }

        /// Whether `other` was made by the same check: the same process and check (the time a
        /// claim lasts is not compared).
        package func isMade(bySameCheckAs other: Claim) -> Bool {
            processID == other.processID && check == other.check
        }

        /// Whether `claimant` made this claim.
        package func isHeld(by claimant: Claimant) -> Bool {
            isMade(bySameCheckAs: claimant.claim(until: until))
        }
    }

    private enum CodingKeys: String, CodingKey {
        case ignored, viewed, reminded, absentSince, lastChecked, failure, cachedFeed, presenting, presentingPrompts, handedOver, answeredAway, shows, prompts, rolloutDraw, feedVersions, feedSignatures, seenVersion
    }

    /// Reads a state file; keys missing from older files take their empty values.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ignored = try container.decodeIfPresent([String].self, forKey: .ignored).map(Set.init)
        viewed = Set(try container.decodeIfPresent([String].self, forKey: .viewed) ?? [])
        reminded = try container.decodeIfPresent([String: Date].self, forKey: .reminded) ?? [:]
        absentSince = try container.decodeIfPresent([String: Date].self, forKey: .absentSince) ?? [:]
        lastChecked = try container.decodeIfPresent(Date.self, forKey: .lastChecked)
        failure = try container.decodeIfPresent(FailureRecord.self, forKey: .failure)
        cachedFeed = try container.decodeIfPresent(CachedFeed.self, forKey: .cachedFeed)
        presenting = try container.decodeIfPresent([String: Claim].self, forKey: .presenting) ?? [:]
        presentingPrompts = try container.decodeIfPresent([String: Claim].self, forKey: .presentingPrompts) ?? [:]
        handedOver = try container.decodeIfPresent([String: Handover].self, forKey: .handedOver) ?? [:]
        answeredAway = try container.decodeIfPresent([String: AnswerGivenAway].self, forKey: .answeredAway) ?? [:]
        shows = try container.decodeIfPresent([String: ShowRecord].self, forKey: .shows) ?? [:]
        prompts = try container.decodeIfPresent([String: PromptState].self, forKey: .prompts) ?? [:]
        rolloutDraw = try container.decodeIfPresent(Double.self, forKey: .rolloutDraw).flatMap { (0..<1).contains($0) ? $0 : nil }
        feedVersions = try container.decodeIfPresent([String: UInt64].self, forKey: .feedVersions) ?? [:]
        feedSignatures = try container.decodeIfPresent([String: Data].self, forKey: .feedSignatures) ?? [:]
        seenVersion = try container.decodeIfPresent(SeenVersion.self, forKey: .seenVersion)
    }

    /// Ids in the order the state file lists them: by their UTF-8 bytes, a total order, so the
    /// same set is always written the same way (`String`'s own order, which compares canonical
    /// equivalents, can place `é0` and a decomposed `é` differently depending on where each
    /// started).
    static func fileOrder(_ ids: Set<String>) -> [String] {
        ids.sorted(by: ByteSearch.precedes)
    }

    /// Writes the state with sorted lists, so that files and diffs are stable.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(ignored.map(Self.fileOrder), forKey: .ignored)
        try container.encode(Self.fileOrder(viewed), forKey: .viewed)
        try container.encode(reminded, forKey: .reminded)
        try container.encode(absentSince, forKey: .absentSince)
        try container.encodeIfPresent(lastChecked, forKey: .lastChecked)
        try container.encodeIfPresent(failure, forKey: .failure)
        try container.encodeIfPresent(cachedFeed, forKey: .cachedFeed)
        try container.encode(presenting, forKey: .presenting)
        try container.encode(presentingPrompts, forKey: .presentingPrompts)
        if !handedOver.isEmpty { try container.encode(handedOver, forKey: .handedOver) }
        if !answeredAway.isEmpty { try container.encode(answeredAway, forKey: .answeredAway) }
        if !shows.isEmpty { try container.encode(shows, forKey: .shows) }
        try container.encode(prompts, forKey: .prompts)
        try container.encodeIfPresent(rolloutDraw, forKey: .rolloutDraw)
        if !feedVersions.isEmpty { try container.encode(feedVersions, forKey: .feedVersions) }
        if !feedSignatures.isEmpty { try container.encode(feedSignatures, forKey: .feedSignatures) }
        try container.encodeIfPresent(seenVersion, forKey: .seenVersion)
    }
}

/// One check of one process: who makes and releases claims.
package struct Claimant: Sendable, Hashable {
    /// The process running the check.
    package var processID: Int32
    /// A name for the check, unique within the process.
    package var check: String

    /// Creates a claimant.
    package init(processID: Int32, check: String) {
        self.processID = processID
        self.check = check
    }

    /// A claim by this check, held until `until`.
    package func claim(until: Date) -> HeraldState.Claim {
        HeraldState.Claim(processID: processID, check: check, until: until)
    }
}
