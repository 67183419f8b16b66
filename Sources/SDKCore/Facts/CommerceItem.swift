/// One line of a cart or a purchase.
public struct CommerceItem: Sendable, Hashable {
    public var id: String
    public var name: String
    public var price: Double
    public var quantity: Int
    public var sku: String?
    public var dataFields: [String: DataValue]?

    public init(id: String, name: String, price: Double, quantity: Int, sku: String? = nil, dataFields: [String: DataValue]? = nil) {
        self.id = id
        self.name = name
        self.price = price
        self.quantity = quantity
        self.sku = sku
        self.dataFields = dataFields
    }

    var dataValue: DataValue {
        var object: [String: DataValue] = ["id": .string(id), "name": .string(name), "price": .number(price), "quantity": .integer(Int64(quantity))]
        if let sku { object["sku"] = .string(sku) }
        if let dataFields { object["dataFields"] = .object(dataFields) }
        return .object(object)
    }
}
