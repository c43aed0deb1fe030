print("keyscope")
