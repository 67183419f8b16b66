/// The report page's style sheet (inline: the page loads nothing from anywhere).
enum ReportStyle {
    static let source = """
        body { font: 13px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1d2330; background: #fff; }
        header { padding: 12px 18px 8px; border-bottom: 1px solid #e3e6ec; background: #f7f8fb; }
        h1 { font-size: 18px; margin: 0 0 4px; }
        h2 { font-size: 15px; margin: 4px 0 8px; }
        h3 { font-size: 13px; margin: 12px 0 4px; color: #4a5263; }
        #summary { color: #4a5263; }
        #findings ul, #results ul { margin: 6px 0; padding-left: 18px; max-height: 160px; overflow: auto; }
        #findings li.warning b { color: #b86a10; }
        #findings li.violation b { color: #c22f2f; }
        .ok { color: #2e9d5b; margin: 6px 0; }
        .toolbar { display: flex; gap: 8px; align-items: center; margin-top: 8px; }
        .toolbar input { width: 340px; padding: 4px 8px; border: 1px solid #c9ced8; border-radius: 4px; }
        .toolbar button { padding: 3px 10px; border: 1px solid #c9ced8; background: #fff; border-radius: 4px; cursor: pointer; }
        .legend span { margin-right: 10px; }
        .dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 4px; vertical-align: -1px; }
        main { display: flex; align-items: flex-start; }
        #timeline { flex: 1 1 auto; min-width: 0; overflow: hidden; cursor: grab; user-select: none; }
        #details { flex: 0 0 420px; max-height: 92vh; overflow: auto; padding: 8px 14px; border-left: 1px solid #e3e6ec; }
        #details pre { background: #f5f6f8; padding: 6px 8px; overflow: auto; max-height: 340px; font-size: 11.5px; }
        .hint { color: #6b7385; }
        .pill { color: #fff; border-radius: 8px; padding: 1px 7px; font-size: 11px; font-weight: normal; }
        table.steps { border-collapse: collapse; width: 100%; }
        table.steps td, table.steps th { text-align: left; padding: 2px 6px; border-bottom: 1px solid #eee; }
        table.steps tr.sel { background: #fff3d6; }
        svg text { font-size: 11px; fill: #3a4150; }
        svg .tick { fill: #8a90a0; font-size: 10px; }
        svg .lane-label { font-weight: 600; font-size: 12px; }
        svg .lane-fp { fill: #8a90a0; font-size: 10px; font-family: ui-monospace, monospace; }
        svg .switch-title { font-weight: 600; fill: #4b3a8c; }
        #findings li.verdict b { font-weight: 700; }
        table.receipts { table-layout: fixed; font-size: 11.5px; }
        table.receipts td { overflow-wrap: anywhere; vertical-align: top; }
        .receipt-legend svg { margin-right: 2px; }
        .legend .receipt-legend span { margin-right: 8px; }
        svg .receipt, svg .mark, svg .step, svg .bucket, svg .held, svg .switch path { cursor: pointer; }
        svg .dim { opacity: 0.15; }
        """
}
