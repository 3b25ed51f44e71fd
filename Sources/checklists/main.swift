import ArgumentParser

await Checklists.main()
