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
}
