import ArgumentParser

/// The `checklists` command: the backend and its maintenance commands.
struct Checklists: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Checklists: a FastCGI backend that keeps named checklists.",
    subcommands: [
      ServeCommand.self, GenerateCommand.self, CheckCommand.self, PruneCommand.self,
      MigrateCommand.self, TranslationsCommand.self, RecurrenceCommand.self,
    ]
  )
}
