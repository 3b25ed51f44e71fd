extension RouteTable {
  /// Every address of the product: a line per method and path, with the
  /// handler on its screen's type. A new route is a line here and a handler.
  package static let checklists = RouteTable([
    .get("/", AllListsScreen.landing),
    .get("/lists", revisited: true, AllListsScreen.show),
    .post("/lists", ListFormScreen.create),
    .get("/lists/new", ListFormScreen.newList),
    .get("/lists/{list}", revisited: true, ChecklistScreen.show),
    .post("/lists/{list}", ListFormScreen.save),
    .get("/lists/{list}/edit", ListFormScreen.edit),
    .post("/lists/{list}/delete", ListFormScreen.delete),
    .post("/lists/{list}/sort", ChecklistScreen.setSort),
    .post("/lists/{list}/check-all", ChecklistScreen.checkAll),
    .post("/lists/{list}/uncheck-all", ChecklistScreen.uncheckAll),
    .get("/lists/{list}/reorder", ReorderScreen.show),
    .post("/lists/{list}/items", ChecklistScreen.addItem),
    .post("/lists/{list}/items/{item}", ItemFormScreen.save),
    .get("/lists/{list}/items/{item}/edit", ItemFormScreen.show),
    .post("/lists/{list}/items/{item}/toggle", ChecklistScreen.toggleItem),
    .post("/lists/{list}/items/{item}/delete", ChecklistScreen.deleteItem),
    .post("/lists/{list}/items/{item}/move", ChecklistScreen.moveItem),
    .post("/lists/{list}/remove-checked", ChecklistScreen.removeChecked),
    .get("/deleted", RecentlyDeletedScreen.show),
    .post("/deleted/{deletion}/restore", RecentlyDeletedScreen.restore),
    .get("/settings", SettingsScreen.show),
    .post("/settings", SettingsScreen.save),
    .post("/settings/reset", SettingsScreen.reset),
    .post("/settings/calendar", SettingsScreen.createCalendar),
    .post("/settings/calendar/replace", SettingsScreen.replaceCalendar),
    .post("/settings/calendar/delete", SettingsScreen.removeCalendar),
    .feed("/calendar/{secret}.ics", CalendarFeedRoute.show),
  ])
}
