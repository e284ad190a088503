import FerryKit

/// `ParameterArguments` turns `key=value` arguments into nested ``Parameters``.
///
/// `a[b][c]=v` nests dictionaries, `a[]=v` appends to an array, and a plain key given twice
/// becomes an array — the shapes AFNetworking's query-string serialization encodes.
enum ParameterArguments {
    static func parse(_ arguments: [String], option: String) throws(FerryError) -> Parameters {
        var root = ParameterValue.dictionary([:])
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else {
                throw .input(.invalidOption("\(option) \"\(argument)\": expected key=value"))
            }
            let key = String(argument[..<equals])
            let value = ParameterValue.string(String(argument[argument.index(after: equals)...]))
            let path = try keyPath(key, option: option)
            root = insert(value, at: path[...], into: root)
        }
        return root.dictionaryValue ?? [:]
    }

    /// `a[b][]` -> ["a", "b", ""] (an empty component means "append").
    private static func keyPath(_ key: String, option: String) throws(FerryError) -> [String] {
        guard let open = key.firstIndex(of: "[") else {
            guard !key.isEmpty else { throw .input(.invalidOption("\(option): empty key")) }
            return [key]
        }
        var path = [String(key[..<open])]
        guard !path[0].isEmpty else { throw .input(.invalidOption("\(option) \"\(key)\": empty key")) }
        var rest = key[open...]
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else {
                throw .input(.invalidOption("\(option) \"\(key)\": unbalanced brackets"))
            }
            path.append(String(rest[rest.index(after: rest.startIndex)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return path
    }

    private static func insert(_ value: ParameterValue, at path: ArraySlice<String>, into container: ParameterValue) -> ParameterValue {
        guard let key = path.first else { return value }
        let rest = path.dropFirst()
        if key.isEmpty {
            var array = container.arrayValue ?? []
            array.append(insert(value, at: rest, into: .dictionary([:])))
            return .array(array)
        }
        var dictionary = container.dictionaryValue ?? [:]
        if rest.isEmpty, let existing = dictionary[key] {
            // A plain key given twice becomes an array.
            dictionary[key] = .array((existing.arrayValue ?? [existing]) + [value])
        } else {
            dictionary[key] = insert(value, at: rest, into: dictionary[key] ?? .dictionary([:]))
        }
        return .dictionary(dictionary)
    }
}
