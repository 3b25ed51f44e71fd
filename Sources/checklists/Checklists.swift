import ArgumentParser

/// The `checklists` command: the backend and its maintenance commands.
struct Checklists: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Checklists: a FastCGI backend that keeps named checklists.",
    subcommands: []
  )
}
