Checklists.main()
