import Foundation

extension ParameterValue {
    /// The value as a property list in `format` (XML by default), written by Foundation's
    /// `PropertyListSerialization`.
    ///
    /// Null and sets have no property-list form and fail with
    /// ``SerializationReason/encodingFailed(_:)``, naming where they are.
    public func propertyListData(format: PropertyListSerialization.PropertyListFormat = .xml) throws(FerryError) -> Data {
        let object = try propertyListObject(path: "")
        do {
            return try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)
        } catch {
            throw .serialization(.encodingFailed("could not write the property list: \(Self.reason(of: error))"))
        }
    }

    /// The value read from a property list in any format (XML, binary or OpenStep), or
    /// ``SerializationReason/invalidPropertyList(_:)``.
    public init(propertyListData data: Data) throws(FerryError) {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .serialization(.invalidPropertyList(Self.reason(of: error)))
        }
        self = try Self(propertyListObject: object)
    }

    private func propertyListObject(path: String) throws(FerryError) -> Any {
        switch self {
        case .string(let string): return string
        case .integer(let integer): return integer
        case .double(let double): return double
        case .bool(let bool): return bool
        case .data(let data): return data
        case .date(let date): return date
        case .null:
            throw .serialization(.encodingFailed("null has no property list form (at \(path.isEmpty ? "the top level" : path))"))
        case .set:
            throw .serialization(.encodingFailed("a set has no property list form (at \(path.isEmpty ? "the top level" : path))"))
        case .array(let elements):
            var objects: [Any] = []
            for (index, element) in elements.enumerated() {
                objects.append(try element.propertyListObject(path: "\(path)[\(index)]"))
            }
            return objects
        case .dictionary(let entries):
            var objects: [String: Any] = [:]
            for (key, value) in entries {
                objects[key] = try value.propertyListObject(path: path.isEmpty ? key : "\(path).\(key)")
            }
            return objects
        }
    }

    /// Converts what `PropertyListSerialization` returns. On Linux a boolean comes back as
    /// `Bool`, numbers as `NSNumber` (told apart by their `objCType`), dictionaries keyed by
    /// `AnyHashable`.
    private init(propertyListObject object: Any) throws(FerryError) {
        if type(of: object) == Bool.self, let bool = object as? Bool {
            self = .bool(bool)
        } else if let string = object as? String {
            self = .string(string)
        } else if let data = object as? Data {
            self = .data(data)
        } else if let date = object as? Date {
            self = .date(date)
        } else if let number = object as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "f", "d": self = .double(number.doubleValue)
            default: self = .integer(number.intValue)
            }
        } else if let array = object as? [Any] {
            var elements: [ParameterValue] = []
            for element in array {
                elements.append(try ParameterValue(propertyListObject: element))
            }
            self = .array(elements)
        } else if let dictionary = object as? [AnyHashable: Any] {
            var entries: [String: ParameterValue] = [:]
            for (key, value) in dictionary {
                guard let key = key.base as? String else {
                    throw .serialization(.invalidPropertyList("a dictionary key is not a string"))
                }
                entries[key] = try ParameterValue(propertyListObject: value)
            }
            self = .dictionary(entries)
        } else {
            throw .serialization(.invalidPropertyList("unsupported value of type \(type(of: object))"))
        }
    }

    /// The most specific message Foundation gives for a property-list error.
    private static func reason(of error: any Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }
}
