/// `XMLDocumentTree` is a parsed XML document: its root element with attributes, text and
/// child elements, in document order.
///
/// Names are as written in the document (with any prefix); CDATA sections are merged into the
/// text around them; comments and processing instructions are dropped. Its `description` is
/// the document as indented XML text.
public struct XMLDocumentTree: Sendable, Hashable, CustomStringConvertible {
    /// `Attribute` is one `name="value"` of an element.
    public struct Attribute: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `Element` is one element: its name, its attributes (sorted by name) and its children.
    public struct Element: Sendable, Hashable {
        public var name: String
        public var attributes: [Attribute]
        public var children: [Node]

        public init(name: String, attributes: [Attribute] = [], children: [Node] = []) {
            self.name = name
            self.attributes = attributes
            self.children = children
        }

        /// The value of the attribute `name`, or `nil`.
        public subscript(attribute name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }

        /// The child elements, in order.
        public var elements: [Element] {
            children.compactMap { if case .element(let element) = $0 { element } else { nil } }
        }

        /// The child elements named `name`, in order.
        public func elements(named name: String) -> [Element] {
            elements.filter { $0.name == name }
        }

        /// All the text inside the element, its descendants' included, in document order.
        public var text: String {
            children.map { node in
                switch node {
                case .text(let text): text
                case .element(let element): element.text
                }
            }.joined()
        }
    }

    /// `Node` is a child of an element: an element or a run of text.
    public enum Node: Sendable, Hashable {
        case element(Element)
        case text(String)
    }

    /// The document's root element.
    public var root: Element

    public init(root: Element) {
        self.root = root
    }

    public var description: String {
        var output = ""
        Self.write(root, indent: 0, to: &output)
        return output
    }

    private static func write(_ element: Element, indent: Int, to output: inout String) {
        let padding = String(repeating: "  ", count: indent)
        output += padding + "<" + element.name
        for attribute in element.attributes {
            output += " \(attribute.name)=\"\(escaped(attribute.value, quotes: true))\""
        }
        let hasText = element.children.contains { if case .text(let text) = $0 { !text.allSatisfy(\.isWhitespace) } else { false } }
        if element.children.isEmpty || (!hasText && element.elements.isEmpty) {
            output += "/>"
        } else if hasText {
            output += ">"
            for child in element.children {
                switch child {
                case .text(let text): output += escaped(text, quotes: false)
                case .element(let nested): write(nested, indent: 0, to: &output)
                }
            }
            output += "</\(element.name)>"
        } else {
            output += ">"
            for nested in element.elements {
                output += "\n"
                write(nested, indent: indent + 1, to: &output)
            }
            output += "\n" + padding + "</\(element.name)>"
        }
    }

    private static func escaped(_ text: String, quotes: Bool) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
