print("replay")
