import HeraldCore

/// One person of an attention run: the apps they use, when each of them checks, and how they
/// answer what is shown. Drawn once from the run's seed, so the run without the budget and the
/// run with it see the same logins, checks and answers.
struct PersonDays {
    /// What the person does with a notification.
    enum Response: Equatable {
        /// Clicks a button: view (or OK), remind me later, or ignore.
        case answered(Answer)
        /// Closes it (dismissed: remind later), or leaves it until it expires (shown again at
        /// the next check).
        case closed(CloseReason)

        /// The answer Herald records, `nil` for none.
        var answer: Answer? {
            switch self {
            case .answered(let answer): return answer
            case .closed(let reason): return CheckPolicy.answer(forClose: reason)
            }
        }
    }

    /// A check of one of the person's apps: when its gate is asked, and which app.
    struct Check {
        /// Seconds from the start of the simulated days.
        var time: Double
        /// The app's place in `apps`.
        var slot: Int
    }

    /// The apps the person uses: positions in the catalog, all different.
    var apps: [Int]
    /// Every check, in time order.
    var checks: [Check]
    /// When each session starts (the logins), in seconds from the start of the simulated days,
    /// in time order: when one check for every app (`herald check --registered`) runs.
    var logins: [Double]
    /// The seed of the person's answers.
    private var answerSeed: UInt64

    /// Draws a person: `setup.appsPerPerson` apps of the catalog; each day one login, and a
    /// second one (on the share of days the person is drawn to have), each starting a session
    /// of about four hours; the apps' checks in those sessions, as their triggers say.
    ///
    /// The first login is around 8:30 (σ 45 min), the second around 13:30 (σ 1 h), at least a
    /// quarter of an hour after the first session ends.
    init(person: Int, setup: AttentionSetup, catalog: [AppPublisher]) {
        var random = FleetRandom(seed: setup.seed, install: person)
        answerSeed = random.next()
        var pool = Array(catalog.indices)
        apps = (0..<min(setup.appsPerPerson, pool.count)).map { taken in
            pool.swapAt(taken, Int.random(in: taken..<pool.count, using: &random))
            return pool[taken]
        }
        let secondLogins = random.unit()
        checks = []
        logins = []
        for day in 0..<setup.days {
            let midnight = Double(day) * secondsPerDay
            var login = min(max(random.normal(mean: 8.5 * 3600, deviation: 45 * 60), 5 * 3600), 12 * 3600)
            for session in 0..<2 {
                logins.append(midnight + login)
                let length = min(max(random.normal(mean: 4 * 3600, deviation: 3600), 1800), 8 * 3600)
                for (slot, app) in apps.enumerated() {
                    switch catalog[app].trigger {
                    case .login(let startDelay):
                        checks.append(Check(time: midnight + login + SessionPattern.loginDelay(upTo: startDelay, using: &random), slot: slot))
                    case .appStart(let chance):
                        for opening in 0..<2 where random.unit() < (opening == 0 ? chance : chance / 3) {
                            checks.append(Check(time: midnight + login + Double.random(in: 0..<length, using: &random), slot: slot))
                        }
                    }
                }
                guard session == 0, random.unit() < secondLogins else { break }
                login = max(random.normal(mean: 13.5 * 3600, deviation: 3600), login + length + 900)
            }
        }
        checks.sort { $0.time < $1.time }
    }

    /// A person who uses `apps`, checks them at `checks` and logs in at `logins`, answering as
    /// `answerSeed` draws.
    init(apps: [Int], checks: [Check], logins: [Double], answerSeed: UInt64) {
        self.apps = apps
        self.checks = checks
        self.logins = logins
        self.answerSeed = answerSeed
    }

    /// What the person does with the `showing`-th showing (from 0) of a message of the app in
    /// `slot`: view 35 %, ignore 20 %, remind me later 15 %, dismiss 10 %, leave it to expire 20 %.
    /// A function of the message and the showing, not of what was shown before: both runs get
    /// the same response to the same showing.
    func response(slot: Int, message: Int, showing: Int) -> Response {
        var random = FleetRandom(seed: answerSeed, install: (slot << 40) | (message << 16) | min(showing, 0xFFFF))
        let draw = random.unit()
        if draw < 0.35 { return .answered(.view) }
        if draw < 0.55 { return .answered(.ignore) }
        if draw < 0.70 { return .answered(.remind) }
        if draw < 0.80 { return .closed(.dismissed) }
        return .closed(.expired)
    }
}
