import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// Local prompts (iPrompt's job): counted at each launch, shown when due, after the feed.
extension Herald {
    /// Registers a prompt; a prompt with the same name replaces the earlier one and is still
    /// counted once per launch.
    public func register(_ prompt: Prompt) {
        prompts[prompt.name] = prompt
    }

    /// Registers every usable prompt of a prompts file.
    public func register(_ file: PromptsFile) {
        for prompt in file.prompts { register(prompt) }
    }

    /// The registered prompts, by name.
    public var registeredPrompts: [Prompt] { prompts.values.sorted { $0.name < $1.name } }

    /// Counts this launch as one use of every registered prompt; returns whether any is registered.
    func countPromptUses() -> Bool {
        guard !prompts.isEmpty else { return false }
        let now = now()
        let registered = Array(prompts.values)
        updateState { $0.prompts = PromptPolicy.countLaunch(of: registered, in: $0.prompts, now: now) }
        return true
    }

    /// Shows every due prompt, in name order.
    func presentDuePrompts() {
        let now = now()
        // Read under the lock, like every other access to the state.
        guard let states = updateState({ $0.prompts }) else { return }
        for prompt in registeredPrompts {
            let decision = PromptPolicy.decide(prompt, state: states[prompt.name] ?? PromptState(), now: now)
            delegate?.herald(self, didDecide: decision, for: prompt)
            guard case .show(let preview) = decision else { continue }
            if !preview, delegate?.herald(self, shouldDisplay: prompt) == false { continue }
            let capabilities: Set<String>
            do {
                capabilities = try presenter.capabilities()
            } catch {
                return reportOnce(error as? HeraldError ?? .noNotificationServer)
            }
            show(prompt, content: PromptPolicy.content(of: prompt, labels: configuration.labels, capabilities: capabilities))
        }
    }

    private func show(_ prompt: Prompt, content: NotificationContent) {
        let handle: PresentedMessage
        do {
            handle = try presenter.present(content, link: prompt.actionURL) { [weak self] response in
                self?.promptResponded(prompt.name, with: response)
            }
        } catch {
            return delegate?.herald(self, didFailWithError: error as? HeraldError ?? .presentation("\(error)")) ?? ()
        }
        delegate?.herald(self, didShow: prompt, notificationID: handle.id)
        if content.isInteractive {
            shownPrompts[prompt.name] = (prompt, handle)
        } else {
            // DESIGN.md D11: without buttons there is no answer; showing it is the action.
            record(.action, for: prompt)
        }
    }

    private func promptResponded(_ name: String, with response: NotificationResponse) {
        guard let (prompt, _) = shownPrompts.removeValue(forKey: name) else { return }
        switch response {
        case .action(let id):
            if let button = PromptPolicy.button(forActionID: id) {
                record(button, for: prompt)
                delegate?.herald(self, prompt: prompt, didPress: button)
                if button == .action, let url = prompt.actionURL, delegate?.herald(self, shouldOpenActionURLFor: prompt) ?? true {
                    do { try linkOpener.open(url) } catch { delegate?.herald(self, didFailToOpen: url, reason: "\(error)") }
                }
            } else {
                delegate?.herald(self, didClose: prompt, reason: .undefined)
            }
        case .closed(let reason):
            if CheckPolicy.answer(forClose: reason) == .remind { record(.remind, for: prompt) }
            delegate?.herald(self, didClose: prompt, reason: reason)
        }
        finishIfAnswered()
    }

    /// Takes shown prompts off the screen, unanswered.
    func closeShownPrompts() {
        let open = shownPrompts
        shownPrompts = [:]
        for (_, item) in open {
            delegate?.herald(self, didClose: item.prompt, reason: .closedByHerald)
            item.handle.close()
        }
    }

    private func record(_ button: PromptButton, for prompt: Prompt) {
        let now = now()
        updateState { state in
            state.prompts[prompt.name] = PromptPolicy.apply(button, to: prompt, state: state.prompts[prompt.name] ?? PromptState(), now: now)
        }
    }
}
