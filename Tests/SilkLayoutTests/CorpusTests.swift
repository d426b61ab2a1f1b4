import Foundation
import Glibc
import Testing
@testable import SilkLayout
import SilkLayoutTools

/// The Yoga/Chrome flexbox corpus (Fixtures/README.md), run through the CSS-to-Silk mapping of
/// docs/layout.md. Every case must match exactly after rounding to whole points.
@Suite struct CorpusTests {
    static func loadCorpus() throws -> [CorpusCase] {
        let url = try #require(Bundle.module.url(forResource: "yoga-flexbox", withExtension: "json",
                                                 subdirectory: "Fixtures"))
        return try CorpusFile.load(contentsOf: url)
    }

    @Test func everyCaseMatchesExactly() throws {
        let cases = try Self.loadCorpus()
        #expect(cases.count == 494)
        var failures: [String] = []
        var tagPassed: [String: Int] = [:], tagTotal: [String: Int] = [:]
        for c in cases {
            let result = CorpusEvaluator.run(c, tolerance: 0)
            for tag in c.features {
                tagTotal[tag, default: 0] += 1
                if result.passed { tagPassed[tag, default: 0] += 1 }
            }
            if let f = result.failure { failures.append("\(c.name): \(f)") }
        }
        let summary = tagTotal.keys.sorted().map { "\($0) \(tagPassed[$0, default: 0])/\(tagTotal[$0]!)" }
        print("corpus: \(cases.count - failures.count)/\(cases.count) exact; " + summary.joined(separator: ", "))
        #expect(failures.isEmpty, "\(failures.count) failing: \(failures.prefix(10).joined(separator: "\n"))")
        // The acceptance bar is 95 %.
        #expect(Double(cases.count - failures.count) >= 0.95 * Double(cases.count))
    }

    /// Random trees with every feature, laid out by Yoga itself (built from source at the
    /// corpus's commit; see `about` in the file). Where Yoga's 32-bit floats and these doubles
    /// round differently in degenerate shrink cases a frame may differ, so 97 % must match.
    @Test func randomTreesMatchYoga() throws {
        let url = try #require(Bundle.module.url(forResource: "yoga-random", withExtension: "json",
                                                 subdirectory: "Fixtures"))
        let cases = try CorpusFile.load(contentsOf: url)
        #expect(cases.count == 150)
        // Yoga's own frames: its behaviour where it differs from the browser's.
        let failures = cases.compactMap { c in
            CorpusEvaluator.run(c, tolerance: 1, yogaCompatible: true).failure.map { "\(c.name): \($0)" }
        }
        print("random trees: \(cases.count - failures.count)/\(cases.count) match Yoga")
        #expect(Double(failures.count) <= 0.03 * Double(cases.count), "\(failures.joined(separator: "\n"))")
    }

    /// Random flexbox trees laid out by headless Chromium (Tools/layout-corpus/chromium_flex.py):
    /// the default mode follows the browser. Issue 19's bar is 97 %; the floor below is the rate
    /// measured today (195 of 200) (docs/layout.md, "Random trees from Chromium"), so a regression fails.
    @Test func randomTreesMatchChromium() throws {
        let url = try #require(Bundle.module.url(forResource: "chromium-flex-random", withExtension: "json",
                                                 subdirectory: "Fixtures"))
        let cases = try CorpusFile.load(contentsOf: url)
        #expect(cases.count == 200)
        let failures = cases.compactMap { c in CorpusEvaluator.run(c, tolerance: 1).failure.map { "\(c.name): \($0)" } }
        print("random Chromium trees: \(cases.count - failures.count)/\(cases.count) match")
        for f in failures { print("  chromium random failure: \(f)") }
        #expect(cases.count - failures.count >= 198, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// Minimal cases where Yoga and Chromium disagree (Fixtures/chromium-flex-deviations.json):
    /// the default mode follows the browser, `yogaCompatible` reproduces Yoga.
    @Test func browserModeMatchesChromiumWhereYogaDiffers() throws {
        let url = try #require(Bundle.module.url(forResource: "chromium-flex-deviations", withExtension: "json",
                                                 subdirectory: "Fixtures"))
        let cases = try CorpusFile.load(contentsOf: url)
        #expect(cases.count == 40)
        let browser = cases.compactMap { c in CorpusEvaluator.run(c, tolerance: 0).failure.map { "\(c.name): \($0)" } }
        #expect(browser.isEmpty, "\(browser.joined(separator: "\n"))")
        let yoga = cases.filter { !CorpusEvaluator.run($0, tolerance: 0, yogaCompatible: true).passed }.map(\.name)
        #expect(yoga == ["relative_in_row_reverse", "wrap_reverse_padding", "abs_percent_margin",
                         "flex_basis_in_indefinite_column", "percent_cross_size_does_not_stretch",
                         "multiline_item_margins", "single_flex_child_small_grow", "wrap_reverse_item_margins",
                         "stretch_in_spaced_lines", "stretched_column_item_keeps_height",
                         "relative_left_in_rtl_row_reverse", "min_size_above_max_size_wins",
                         "percent_flex_basis_of_indefinite_column", "intrinsic_width_percent_as_auto",
                         "intrinsic_width_flex_basis", "child_percent_min_of_container",
                         "abs_auto_margin_overconstrained", "no_fit_content_height", "column_wrap_intrinsic_width",
                         "abs_auto_height_percent_children", "wrap_single_flex_child_real_basis",
                         "indefinite_column_item_percent_height", "auto_margin_of_next_line",
                         "stretched_item_percent_basis", "stretched_column_item_stays_indefinite",
                         "overflowing_space_evenly_in_row_reverse", "overflowing_space_around_lines_in_wrap_reverse",
                         "abs_auto_margin_overlapping_insets", "abs_align_self_end_between_insets",
                         "abs_align_self_center_overflow_shifted", "abs_align_self_center_zero_size_insets",
                         "justify_with_auto_margins_and_negative_free_space",
                         "auto_cross_margin_measured_unstretched", "column_wrap_percent_of_flexed_height",
                         "percent_max_of_content_sized_column", "wrap_row_at_least_its_min_content"])
    }

    /// The browser-generated corpus holds only cases where Yoga and the browser agree: it passes
    /// in Yoga-compatible mode too, in both directions.
    @Test func yogaCompatibleModeKeepsTheCorpus() throws {
        let cases = try Self.loadCorpus()
        let failures = cases.compactMap { c in CorpusEvaluator.run(c, tolerance: 0, yogaCompatible: true).failure.map { "\(c.name): \($0)" } }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// Cases of Yoga's generated tests that the main corpus leaves out (content-box,
    /// display: contents, sizing keywords): all must match.
    @Test func extraYogaCasesMatch() throws {
        let url = try #require(Bundle.module.url(forResource: "yoga-extra", withExtension: "json",
                                                 subdirectory: "Fixtures"))
        let cases = try CorpusFile.load(contentsOf: url)
        #expect(cases.count == 37)
        let failures = cases.compactMap { c in CorpusEvaluator.run(c, tolerance: 0).failure.map { "\(c.name): \($0)" } }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func emittedFramesHaveTheCaseTreeShape() throws {
        let cases = try Self.loadCorpus()
        let results = cases.prefix(20).map { CorpusEvaluator.run($0) }
        let json = CorpusEvaluator.emitJSON(results)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let emitted = try #require(parsed["cases"] as? [[String: Any]])
        #expect(emitted.count == 20)
        func count(_ n: [String: Any]) -> Int {
            1 + ((n["children"] as? [[String: Any]]) ?? []).map(count).reduce(0, +)
        }
        func count(_ n: CorpusNode) -> Int { 1 + n.children.map(count).reduce(0, +) }
        for (e, c) in zip(emitted, cases) {
            #expect(e["name"] as? String == c.name)
            let root = try #require(e["root"] as? [String: Any])
            // Unwrapped first: Swift 6.0's testing macros reject a `try #require` nested in `#expect`.
            let caseRoot = try #require(c.root)
            #expect(count(root) == count(caseRoot))
            for key in ["left", "top", "width", "height"] { #expect(root[key] is NSNumber) }
        }
    }

    @Test func malformedFilesAreRejectedWithAReason() {
        func message(_ text: String) -> String? {
            do { _ = try CorpusFile.parse(Data(text.utf8)); return nil } catch { return error.message }
        }
        #expect(message("nope")?.contains("not valid JSON") == true)
        #expect(message("[]") == "top level is not an object")
        #expect(message("{\"cases\": 3}") == "no \"cases\" array")
        #expect(message("{\"cases\": [{\"name\": \"a\"}]}") == "case \"a\": missing \"root\" object")
        #expect(message("{\"cases\": [{\"name\": \"a\", \"root\": {\"style\": {\"width\": true}}}]}")?
            .contains("width has an invalid value true") == true)
        #expect(message("{\"cases\": [{\"name\": \"a\", \"root\": {\"style\": {\"alignItems\": \"diagonal\"}}}]}")?
            .contains("alignItems") == true)
        let deep = "{\"cases\": [" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "]}"
        #expect(message(deep)?.contains("levels deep") == true)
    }

    /// Issue 23: a million children took 1.9 GB, and a bad value of 20 MB was echoed whole.
    @Test func hugeFilesAreRefusedBeforeUsingTheirMemory() throws {
        func message(_ text: String) -> String? {
            do { _ = try CorpusFile.parse(Data(text.utf8)); return nil } catch { return error.message }
        }
        let many = "{\"cases\": [{\"name\": \"wide\", \"root\": {\"children\": ["
            + Array(repeating: "{}", count: 4 * CorpusFile.maximumNodes + 1).joined(separator: ",") + "]}}]}"
        #expect(message(many)?.contains("at most \(CorpusFile.maximumNodes) nodes") == true)
        // Just over the node limit, under the container pre-check: counted while reading.
        let over = "{\"cases\": [{\"name\": \"wide\", \"root\": {\"children\": ["
            + Array(repeating: "{\"children\": null}", count: CorpusFile.maximumNodes).joined(separator: ",") + "]}}]}"
        #expect(message(over)?.contains("more than \(CorpusFile.maximumNodes) nodes") == true)
        let long = String(repeating: "A", count: 1_000_000)
        let echoed = try #require(message("{\"cases\": [{\"name\": \"\(long)\", \"root\": {\"style\": {\"width\": \"\(long)\"}}}]}"))
        #expect(echoed.count < 300, "the message quotes an excerpt: \(echoed.prefix(100))")
        #expect(echoed.contains("width has an invalid value"))
    }

    @Test func filesThatAreNotRegularAreRefusedWithoutBlocking() throws {
        let fifo = NSTemporaryDirectory() + "silk-corpus-fifo-\(getpid())"
        #expect(mkfifo(fifo, 0o644) == 0)
        defer { unlink(fifo) }
        #expect(throws: CorpusError.self) { try CorpusFile.load(contentsOf: URL(fileURLWithPath: fifo)) }
        do { _ = try CorpusFile.load(contentsOf: URL(fileURLWithPath: "/nonexistent/silk.json")) } catch {
            #expect(error.message == "no such file")
        }
    }

    @Test func unsupportedValuesFailTheirCaseOnly() throws {
        let text = """
        {"cases": [
          {"name": "block", "root": {"style": {"display": "block"}, "children": []}},
          {"name": "fine", "available": [200, null], "root": {"style": {"flexDirection": "row"},
             "children": [{"style": {"flexGrow": 1, "height": 10}, "children": [],
                           "expected": {"left": 0, "top": 0, "width": 200, "height": 10}}]}}
        ]}
        """
        let cases = try CorpusFile.parse(Data(text.utf8))
        let results = cases.map { CorpusEvaluator.run($0) }
        #expect(results[0].failure == "unsupported: display: block")
        #expect(results[1].passed)
    }
}
