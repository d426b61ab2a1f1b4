import FuzzSupport
import Foundation
import SilkLayout
import SilkLayoutTools

// libFuzzer target: the layout evaluator on arbitrary bytes — `CorpusFile.parse` (JSON, the
// CSS-to-spec mapping, nesting limits) then `CorpusEvaluator.run` (the flexbox engine, rounding,
// comparison) on every case it accepts. Seeds: Fuzz/corpus/layout (cases from the Yoga corpus);
// Fuzz/layout.dict gives libFuzzer the schema's keywords so mutations stay JSON-shaped.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayout(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data, count: count))
    guard let cases = try? CorpusFile.parse(bytes) else { return 0 }
    for c in cases.prefix(8) {
        let result = CorpusEvaluator.run(c)
        if let computed = result.computed {
            precondition(computed.frame.width.isFinite || computed.frame.width.isNaN)
        }
        _ = CorpusEvaluator.emitJSON([result])
    }
    return 0
}

@main enum FuzzLayoutMain {
    static func main() { runFuzzer { fuzzLayout($0, $1) } }
}
