import KeyscopeCore
import Testing

@testable import keyscope

/// `keyscope write` VALUE parsing: JSON text, or a raw string with --string; remove takes none.
@Suite struct WriteRequestTests {
    @Test(arguments: [
        ("100", StoreValue.integer(100)), ("2.5", .number(2.5)), ("3.0", .number(3)), ("true", .bool(true)),
        ("null", .null), (#""text""#, .string("text")), ("[1,2]", .array([1, 2])), (#"{"a":1}"#, .object(["a": 1])),
        (##"{"$color":"#FF8800"}"##, .color(StoreColor("#FF8800")!)), (#"{"$$x":1}"#, .object(["$x": 1])), ("-5", -5),
    ])
    func valuesAreJSONText(text: String, value: StoreValue) throws {
        #expect(try WriteRequest.parseValue(text, op: .set, asString: false) == value)
    }

    @Test func withStringTheTextIsTakenAsItIs() throws {
        #expect(try WriteRequest.parseValue("hello", op: .set, asString: true) == "hello")
        #expect(try WriteRequest.parseValue("100", op: .set, asString: true) == "100")
        #expect(try WriteRequest.parseValue(#""q""#, op: .insert, asString: true) == #""q""#)
    }

    @Test(arguments: ["hello", "'text'", "{a:1}", "1,2", "", "nan", "0x10", "[1,]", ##"{"$color":"red"}"##])
    func textThatIsNotJSONIsRefusedWithAdvice(text: String) {
        do {
            _ = try WriteRequest.parseValue(text, op: .set, asString: false)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains("is not valid JSON"))
            #expect(error.message.contains("--string"))
        }
    }

    @Test(arguments: ["hello", "1,2", "nan", "0x10", "two words"])
    func aBareWordIsShownAsTheJSONStringItWouldBe(text: String) throws {
        let advice = WriteRequest.jsonAdvice(text)
        let suggested = try #require(advice.firstMatch(of: /'([^']*)'/)?.output.1)
        // The suggestion, as the shell hands it over, is valid JSON for the text itself.
        #expect(try StoreValue(jsonText: String(suggested)) == .string(text))
    }

    @Test(arguments: [#"{"code":"#, "{a:1}", "[1,]", #""open"#, ##"{"$color":"red"}"##, "  [1"])
    func textMeantAsJSONIsToldToBeMendedNotQuoted(text: String) {
        let advice = WriteRequest.jsonAdvice(text)
        #expect(advice.hasPrefix("Check the JSON"), "\(advice)")
        #expect(!advice.contains("'\""), "no quoting that would itself be invalid JSON: \(advice)")
    }

    @Test func textWithAQuoteOfTheShellIsNotQuotedForIt() {
        #expect(WriteRequest.jsonAdvice("it's").hasPrefix("Write a string as JSON in double quotes"))
    }

    @Test func removeTakesNoValueAndTheOtherOpsNeedOne() throws {
        #expect(try WriteRequest.parseValue(nil, op: .remove, asString: false) == nil)
        #expect(throws: CommandFailure.self) { try WriteRequest.parseValue("1", op: .remove, asString: false) }
        #expect(throws: CommandFailure.self) { try WriteRequest.parseValue(nil, op: .remove, asString: true) }
        for op in [WriteOperation.set, .insert, .merge] {
            #expect(throws: CommandFailure.self) { try WriteRequest.parseValue(nil, op: op, asString: false) }
        }
    }

    @Test func theRequestIsAProtocolWriteMessage() throws {
        let set = try WriteRequest(store: "app/memory", path: "cart.total", value: "100", op: .set, asString: false)
        #expect(
            set.message == ["type": "write", "store": "app/memory", "op": "set", "path": "cart.total", "value": 100])
        let remove = try WriteRequest(
            store: "app/memory", path: "cart.coupon", value: nil, op: .remove, asString: false)
        #expect(remove.message == ["type": "write", "store": "app/memory", "op": "remove", "path": "cart.coupon"])
    }
}
